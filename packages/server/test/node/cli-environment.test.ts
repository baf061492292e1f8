/**
 * Problems of the setting or the machine, not of the program, are one line with what to do,
 * never "internal error": a PostgreSQL URL pg cannot parse (a usage error naming the
 * setting), sslmode against a server without SSL (pg's warning paragraph left out), a lock
 * that is a directory, files of the data directory this user may not use; and output cut
 * short by its reader (`| head -1`) ends the command quietly.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { childEnv, oneLine, requireBuild, runCli, serverBin, stopAll } from './processes.ts';

let scratch: string;
let dataDir: string;
beforeAll(async () => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), 'ocs-env-'));
  chmodSync(scratch, 0o755);
  dataDir = join(scratch, 'data');
  expect((await runCli(['org', 'create', '--name', 'Acme', '--data-dir', dataDir])).code).toBe(0);
}, 60_000);
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it.each([
  [
    ['--database-url', 'postgres://postgres@127.0.0.1:99999/test'],
    {},
    /^ocs-server: --database-url is not a valid URL/,
  ],
  [['--database-url', 'postgres://user:secret@[oops/db'], {}, /^ocs-server: --database-url is not a valid URL/],
  [[], { DATABASE_URL: 'postgres://user:secret@[oops/db' }, /^ocs-server: DATABASE_URL is not a valid URL/],
])('a PostgreSQL URL pg cannot parse, %j %j: a usage error, no password repeated', async (args, env, message) => {
  const result = await runCli(['org', 'list', ...args], { env });
  expect(result.code).toBe(2);
  const line = oneLine(result.stderr);
  expect(line).toMatch(message);
  expect(line).not.toContain('secret');
});

it('sslmode=require against a server without SSL: one line saying so', async () => {
  // A server that answers PostgreSQL's SSLRequest with "N" (no SSL), as one without SSL does.
  const noSsl: Server = createServer((socket) => socket.once('data', () => socket.write('N')));
  await new Promise<void>((resolve) => noSsl.listen(0, '127.0.0.1', resolve));
  const { port } = noSsl.address() as { port: number };
  try {
    const result = await runCli(['org', 'list', '--database-url', `postgres://u@127.0.0.1:${port}/db?sslmode=require`]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(/^ocs-server: the PostgreSQL server does not accept SSL connections: /);
  } finally {
    await new Promise((resolve) => noSsl.close(resolve));
  }
});

it('an ocs.lock that is a directory: one line naming it', async () => {
  const dir = join(scratch, 'lock-dir');
  mkdirSync(join(dir, 'ocs.lock'), { recursive: true });
  const result = await runCli(['org', 'list', '--data-dir', dir]);
  expect(result.code).toBe(1);
  expect(oneLine(result.stderr)).toBe(
    `ocs-server: ${join(dir, 'ocs.lock')} is not a lock file: if no ocs-server uses ${dir}, remove it and run the command again.`,
  );
});

it('output whose reader has gone: a quiet end', async () => {
  const child = spawn(process.execPath, [serverBin, 'org', 'list', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(),
  });
  child.stdout.destroy(); // the reader is gone before anything is written, as `| head -0`
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 30_000);
  const code = await new Promise((resolve) => child.once('close', (exit) => resolve(exit)));
  clearTimeout(timer);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
});

// Only root can run the CLI as another user (nobody) to meet a file it may not read, and
// only where nobody may read the CLI itself (a checkout under a private directory, such as
// one `mktemp -d` made, is not).
const asNobody = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
const canSwitchUser =
  process.getuid?.() === 0 &&
  spawnSync(asNobody[0] as string, [...asNobody.slice(1), 'test', '-r', serverBin]).status === 0;
it.skipIf(!canSwitchUser)(
  'a data directory file this user may not read: one line naming it',
  { timeout: 60_000 },
  async () => {
    const theirs = join(scratch, 'theirs');
    expect((await runCli(['org', 'list', '--data-dir', theirs])).code).toBe(0);
    expect(spawnSync('chown', ['-R', 'nobody:nogroup', theirs]).status).toBe(0);
    chmodSync(join(theirs, 'global', 'pg_control'), 0o000);
    const result = await runCli(['org', 'list', '--data-dir', theirs], { wrap: asNobody, env: { HOME: scratch } });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `ocs-server: cannot read or write ${join(theirs, 'global', 'pg_control')} (EACCES): run ocs-server as the user that owns the files of ${theirs}, or give this user access to them.`,
    );
  },
);
