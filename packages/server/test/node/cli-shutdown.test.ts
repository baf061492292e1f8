/**
 * `serve` stops on SIGINT/SIGTERM even while clients hold connections open (a request half
 * sent, or nothing at all): requests under way get a grace period (`OCS_SHUTDOWN_GRACE_MS`),
 * then the connections left are closed. A second signal cuts the grace short, and still the
 * store is closed and the directory's lock released, with exit code 128 + the signal.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { requireBuild, runCli, type Serving, startServe, stopAll } from './processes.ts';

beforeAll(requireBuild);

let dataDir: string;
const sockets: Socket[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-shutdown-'));
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Two clients that keep the server waiting: one sent half a request, one nothing. */
async function holdConnections(serving: Serving): Promise<void> {
  const { hostname, port } = new URL(serving.url);
  for (const sent of ['GET /v1/campaigns HTTP/1.1\r\nHost: 127.0.0.1\r\n', '']) {
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    if (sent) socket.write(sent);
  }
  // Let the server take both connections in.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** The exit code, or 'still running' after 20 s (afterEach then kills it). */
function exitOf(serving: Serving): Promise<number | null | 'still running'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), 20_000);
    serving.child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

it('stops on SIGTERM after the grace period although clients hold connections', { timeout: 90_000 }, async () => {
  const serving = await startServe(['--data-dir', dataDir, '--port', '0'], {
    env: { OCS_SHUTDOWN_GRACE_MS: '500' },
  });
  await holdConnections(serving);
  const exited = exitOf(serving);
  const began = Date.now();
  process.kill(serving.pid, 'SIGTERM');
  expect(await exited).toBe(0);
  expect(Date.now() - began).toBeLessThan(10_000);
  expect(existsSync(join(dataDir, 'ocs.lock'))).toBe(false);
  expect(existsSync(join(dataDir, 'ocs-admin.sock'))).toBe(false);
});

it('a second signal stops at once, still closing the store and releasing the lock', { timeout: 90_000 }, async () => {
  const serving = await startServe(['--data-dir', dataDir, '--port', '0'], {
    env: { OCS_SHUTDOWN_GRACE_MS: '600000' },
  });
  await holdConnections(serving);
  const exited = exitOf(serving);
  process.kill(serving.pid, 'SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(serving.pid, 'SIGINT');
  expect(await exited).toBe(130);
  expect(existsSync(join(dataDir, 'ocs.lock'))).toBe(false);
  // The store was closed whole: the next command opens it and finds the demo organization.
  const listed = await runCli(['org', 'list', '--data-dir', dataDir]);
  expect(listed).toMatchObject({ code: 0, stderr: '' });
  expect(listed.stdout).toContain('Demo Outreach');
});
