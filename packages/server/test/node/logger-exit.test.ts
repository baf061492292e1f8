/**
 * The Node logger on a real standard output, a pipe (JSON lines, written in blocks): whatever
 * ends the process, every line logged before reaches the reader, whole, in order and byte for
 * byte (non-ASCII text too). A normal end, `process.exit` right after the lines, an uncaught
 * error; `process.exit` a few milliseconds after many blocks (when the writes were made on
 * libuv's threads, a block still being written then was lost or cut); a reader that falls
 * behind.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ocs-logger-exit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      // The shell's process group: the shell, the logging process and the reader.
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const src = (path: string) => JSON.stringify(join(import.meta.dirname, '../../src', path));
let scripts = 0;

/**
 * A process that logs `count` access lines, and a pino line (non-ASCII included) after each
 * hundred, then ends as `end` says; its standard output a pipe to `reader` (a shell command).
 */
async function logThenEnd(count: number, end: string, reader = 'cat') {
  const script = join(dir, `log-${(scripts += 1)}.mts`);
  writeFileSync(
    script,
    `import { createNodeLogger } from ${src('node/logger.ts')};
import { logRequest } from ${src('http/middleware/access-log.ts')};
const logger = createNodeLogger({ level: 'info' });
for (let i = 0; i < ${count}; i += 1) {
  // The non-ASCII in the request ID: a path's words the log does not know are redacted (logged-path.ts).
  const line = { requestId: 'req_é' + i, method: 'GET', path: '/v1/campaigns/' + i, operationId: 'getCampaign' };
  logRequest(logger, { ...line, status: 200, started: performance.now() });
  if (i % 100 === 99) logger.log({ level: 'warn', message: 'checkpoint', n: i, note: 'déjà vu ✓' });
}
${end}`,
  );
  // bash's pipefail: the exit code is the logging process's when it is not 0.
  const child = spawn(
    'bash',
    ['-o', 'pipefail', '-c', `"$0" --import tsx "$1" | ${reader}`, process.execPath, script],
    {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  if (child.pid !== undefined) children.push(child.pid);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout: Buffer.concat(chunks).toString('utf8'), stderr };
}

/** Every line there, in the order logged, each one whole JSON. */
function expectEveryLine(stdout: string, count: number) {
  const lines = stdout.split('\n');
  expect(lines.pop()).toBe('');
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const requests = entries.filter((entry) => entry.message === 'request');
  expect(requests.map((entry) => entry.request_id)).toEqual(Array.from({ length: count }, (_, i) => `req_é${i}`));
  expect(requests.at(-1)?.path).toBe(`/v1/campaigns/${count - 1}`);
  const checkpoints = entries.filter((entry) => entry.message === 'checkpoint');
  expect(checkpoints).toHaveLength(Math.floor(count / 100));
  expect(checkpoints[0]).toMatchObject({ level: 'warn', n: 99, note: 'déjà vu ✓' });
  // The first checkpoint comes right after the hundredth request line.
  expect(entries.findIndex((entry) => entry.message === 'checkpoint')).toBe(100);
}

it('writes every line when the process ends of itself', { timeout: 60_000 }, async () => {
  const { code, stdout } = await logThenEnd(250, '');
  expect(code).toBe(0);
  expectEveryLine(stdout, 250);
});

it('writes every line when process.exit follows the lines at once', { timeout: 60_000 }, async () => {
  const { code, stdout } = await logThenEnd(250, 'process.exit(3);');
  expect(code).toBe(3);
  expectEveryLine(stdout, 250);
});

it('writes every line when an uncaught error ends the process', { timeout: 60_000 }, async () => {
  const { code, stdout, stderr } = await logThenEnd(250, "throw new Error('boom');");
  expect(code).toBe(1);
  expect(stderr).toContain('boom');
  expectEveryLine(stdout, 250);
});

it(
  'writes every line, in order, when process.exit comes while many blocks are being written',
  { timeout: 120_000 },
  async () => {
    // About 2.5 MB: the exit comes after 0, 5 and 20 ms, at some point of the writing.
    for (const delayMs of [0, 5, 20]) {
      const { code, stdout } = await logThenEnd(
        8000,
        `await new Promise((resolve) => setTimeout(resolve, ${delayMs}));\nprocess.exit(0);`,
      );
      expect(code).toBe(0);
      expectEveryLine(stdout, 8000);
    }
  },
);

it('writes every line to a reader that falls behind, then exits', { timeout: 60_000 }, async () => {
  // The reader starts after 300 ms: the pipe fills, and the lines wait for it.
  const { code, stdout } = await logThenEnd(8000, 'process.exit(0);', '{ sleep 0.3; cat; }');
  expect(code).toBe(0);
  expectEveryLine(stdout, 8000);
});
