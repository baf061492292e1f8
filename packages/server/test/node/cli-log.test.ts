/**
 * The log of `ocs-server serve` as an operator reads it (the built bin): with standard output
 * not a terminal, JSON lines: a line at start saying where it listens, on which store and
 * whether in sandbox mode; a line per request carrying its request ID; a line at shutdown;
 * `LOG_LEVEL` obeyed, and an unknown level one line and exit code 2. On a terminal (a
 * pseudo-terminal made by `script`), readable lines instead.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { childEnv, oneLine, requireBuild, runCli, serverBin, stopAll } from './processes.ts';

let root: string;
let dirs = 0;
beforeAll(() => {
  requireBuild();
  root = mkdtempSync(join(tmpdir(), 'ocs-log-cli-'));
});
afterEach(stopAll);
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** A data directory of its own for each server: one writer per directory. */
const freshDataDir = () => join(root, `data-${(dirs += 1)}`);

// A PGlite server's first start copies its data directory: seconds on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

type Line = Record<string, unknown>;

/** Serves until the listening line, runs `during` with the API's URL, stops with SIGTERM; the log lines and the exit code. */
async function serveAndStop(
  env: Record<string, string>,
  during: (url: string, linesSoFar: () => Line[]) => Promise<void>,
) {
  const child = spawn(process.execPath, [serverBin, 'serve', '--port', '0', '--data-dir', freshDataDir()], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(env),
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const parsed = () =>
    stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
  const url = await new Promise<string>((resolve, reject) => {
    const listening = () => {
      const line = parsed().find((entry) => entry.message === 'listening');
      // LOG_LEVEL above info: no listening line; the start line on standard error says where.
      const fromStderr = /OCS reference server on (\S+\/v1) /.exec(stderr)?.[1];
      if (line) resolve(String(line.url));
      else if (fromStderr && !env.LOG_LEVEL?.startsWith('info')) resolve(fromStderr);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      listening();
    });
    child.stderr.on('data', listening);
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
  });
  await during(url, parsed);
  if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
  const code = await exited;
  return { code, lines: parsed() };
}

it('logs where it listens, which store and whether sandboxed at start, each request with its ID, and the shutdown', async () => {
  const { code, lines } = await serveAndStop({ LOG_LEVEL: 'info' }, async (url) => {
    const answer = await fetch(`${url}/campaigns`, { headers: { 'X-Request-ID': 'log-test-1' } });
    expect(answer.status).toBe(401);
    await answer.arrayBuffer();
  });
  expect(code).toBe(0);
  const start = lines.find((line) => line.message === 'listening');
  expect(start).toEqual({
    level: 'info',
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
    message: 'listening',
    url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/) as unknown,
    store: 'pglite',
    sandbox: true,
    insecure_webhooks: false,
  });
  expect(lines.find((line) => line.message === 'request')).toMatchObject({
    level: 'info',
    request_id: 'log-test-1',
    method: 'GET',
    path: '/v1/campaigns',
    status: 401,
  });
  expect(lines.at(-1)).toMatchObject({ level: 'info', message: 'stopped', url: start?.url });
});

it('writes a request’s line while the server runs: lines wait in a buffer for a short while only, not until the end', async () => {
  await serveAndStop({ LOG_LEVEL: 'info' }, async (url, linesSoFar) => {
    await (await fetch(`${url}/campaigns`, { headers: { 'X-Request-ID': 'log-test-soon' } })).arrayBuffer();
    // One line is far below the 16 KB a write waits for; the periodic flush writes it.
    await vi.waitFor(() => expect(linesSoFar().some((line) => line.request_id === 'log-test-soon')).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
  });
});

it('writes only the levels LOG_LEVEL lets through', async () => {
  const { code, lines } = await serveAndStop({ LOG_LEVEL: 'warn' }, async (url) => {
    await (await fetch(`${url}/campaigns`)).arrayBuffer();
  });
  expect(code).toBe(0);
  expect(lines).toEqual([]);
});

it('refuses an unknown LOG_LEVEL in one line, exit code 2', async () => {
  const result = await runCli(['serve', '--port', '0', '--data-dir', freshDataDir()], { env: { LOG_LEVEL: 'loud' } });
  expect(result.code).toBe(2);
  expect(oneLine(result.stderr)).toMatch(
    /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got 'loud'/,
  );
});

it('writes readable lines, not JSON, when standard output is a terminal (serve under a pseudo-terminal)', async () => {
  // `script` runs the command on a pseudo-terminal and copies what it writes to our pipe;
  // `exec` makes the server script's own child, so that it is stopped by its pid.
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = `exec ${[process.execPath, serverBin, 'serve', '--port', '0', '--data-dir', freshDataDir()].map(quote).join(' ')}`;
  const script = spawn('script', ['-qfc', command, '/dev/null'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv({ LOG_LEVEL: 'info' }),
  });
  let output = '';
  script.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  script.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => script.on('close', (code) => resolve(code)));
  /** What the terminal shows, without colours and carriage returns. */
  const shown = () => stripVTControlCharacters(output).replaceAll('\r', '');
  const serverPid = () => {
    const children = `/proc/${script.pid}/task/${script.pid}/children`;
    return existsSync(children) ? Number(readFileSync(children, 'utf8').trim().split(' ')[0]) || null : null;
  };
  try {
    const listening = await new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        const found =
          /^\d\d:\d\d:\d\d\.\d{3} INFO +listening url=(http:\/\/127\.0\.0\.1:\d+\/v1) store=pglite sandbox=true insecure_webhooks=false$/m.exec(
            shown(),
          );
        if (found) resolve(found);
      };
      script.stdout.on('data', look);
      void exited.then((code) => reject(new Error(`script exited (${code}) before listening:\n${shown()}`)));
    });
    const url = listening[1] ?? '';
    await (await fetch(`${url}/campaigns`, { headers: { 'X-Request-ID': 'tty-1' } })).arrayBuffer();
    await expect
      .poll(shown, { timeout: 10_000 })
      .toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} INFO +request request_id=tty-1 method=GET path=\/v1\/campaigns operation_id=listCampaigns status=401 duration_ms=[\d.]+ organization_id=null api_key_id=null$/m,
      );
    expect(shown()).not.toMatch(/^\{"level"/m);
  } finally {
    const pid = serverPid();
    if (pid !== null) process.kill(pid, 'SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(shown()).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO +stopped url=/m);
});
