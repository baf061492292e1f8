/**
 * The admin socket's path is limited in bytes (sun_path), not characters: a data directory
 * whose name is short in characters but long in bytes (`é` is two) has its socket in a
 * private temporary directory, and `serve` runs, answers commands and stops cleanly. A
 * channel that cannot be set up leaves nothing listening, so the process can exit.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { requireBuild, runCli, startServe, stopAll } from './processes.ts';

beforeAll(requireBuild);

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ocs-sock-'));
});
afterEach(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

it('serve on a directory long in bytes: the socket goes elsewhere, commands work', { timeout: 90_000 }, async () => {
  const dataDir = join(scratch, 'é'.repeat(45));
  mkdirSync(dataDir);
  const serving = await startServe(['--data-dir', dataDir, '--port', '0']);
  const { socket } = JSON.parse(readFileSync(join(dataDir, 'ocs.lock'), 'utf8')) as { socket: string };
  expect(dirname(socket)).not.toBe(dataDir);

  const listed = await runCli(['org', 'list', '--data-dir', dataDir]);
  expect(listed).toMatchObject({ code: 0, stderr: '' });
  expect(listed.stdout).toContain('Demo Outreach');

  expect(await serving.stop()).toBe(0);
  expect(readdirSync(dataDir).filter((name) => name.startsWith('ocs'))).toEqual([]);
  expect(existsSync(dirname(socket))).toBe(false);
});

it('a channel that cannot listen leaves nothing open: the process exits', { timeout: 30_000 }, async () => {
  const tooLong = join(scratch, 'é'.repeat(60), 'ocs-admin.sock');
  mkdirSync(dirname(tooLong));
  const script = `import { listenAdminChannel } from ${JSON.stringify(join(import.meta.dirname, '../../src/node/admin-channel.ts'))};
await listenAdminChannel(process.argv[1], async () => null).then(() => console.log('listening'), () => console.log('refused'));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, tooLong], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 15_000);
  const code = await new Promise((resolve) => child.once('close', (exit) => resolve(exit)));
  clearTimeout(timer);
  expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'refused' });
  expect(readdirSync(scratch).length).toBe(1);
});
