/**
 * `ocs-server serve --cors-origin` as people meet it (the built bin): the origins given, by
 * flag or by `OCS_CORS_ORIGIN`, are said at start and answered; a value that is no origin,
 * `*` mixed with named origins, or a flag naming none is one line and exit code 2; a port in use is one line and exit code 1, before the store opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { oneLine, requireBuild, runCli, startServe, stopAll } from './processes.ts';

let dataDir: string;
beforeAll(() => {
  requireBuild();
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-cors-cli-'));
});
afterEach(stopAll);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const preflight = (url: string, origin: string) =>
  fetch(`${url}/campaigns`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
  });

it('allows the origins of repeated and comma-separated flags, and says so at start', async () => {
  const serving = await startServe([
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--cors-origin',
    'http://localhost:5173,https://app.example.com',
    '--cors-origin',
    'http://127.0.0.1:3000',
  ]);
  await vi.waitFor(() => expect(serving.stderr()).toMatch(/^CORS: /m), { timeout: 10_000 });
  expect(serving.stderr()).toContain(
    'CORS: pages on http://localhost:5173, https://app.example.com, http://127.0.0.1:3000 may call /v1.',
  );
  const allowed = await preflight(serving.url, 'https://app.example.com');
  expect(allowed.status).toBe(204);
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  const refused = await preflight(serving.url, 'https://evil.example');
  expect(refused.headers.has('access-control-allow-origin')).toBe(false);
  await serving.stop();
}, 60_000);

it('reads OCS_CORS_ORIGIN when no flag is given; without either, CORS is off and says how to turn it on', async () => {
  const fromEnv = await startServe(['--port', '0', '--data-dir', dataDir], {
    env: { OCS_CORS_ORIGIN: 'http://localhost:5173' },
  });
  await vi.waitFor(() => expect(fromEnv.stderr()).toMatch(/^CORS: /m), { timeout: 10_000 });
  expect(fromEnv.stderr()).toContain('CORS: pages on http://localhost:5173 may call /v1.');
  expect((await preflight(fromEnv.url, 'http://localhost:5173')).status).toBe(204);
  await fromEnv.stop();

  const off = await startServe(['--port', '0', '--data-dir', dataDir]);
  await vi.waitFor(() => expect(off.stderr()).toMatch(/^CORS: /m), { timeout: 10_000 });
  expect(off.stderr()).toMatch(/^CORS: off; .*allow one with --cors-origin/m);
  expect((await preflight(off.url, 'http://localhost:5173')).status).toBe(404);
  await off.stop();
}, 90_000);

it.each([
  [
    ['--cors-origin', 'localhost:5173'],
    {},
    /^ocs-server: --cors-origin: 'localhost:5173' is not an origin: write scheme/,
  ],
  [
    ['--cors-origin', 'http://localhost:5173/app'],
    {},
    /--cors-origin: 'http:\/\/localhost:5173\/app' is not an origin/,
  ],
  [[], { OCS_CORS_ORIGIN: 'ftp://files.example' }, /^ocs-server: OCS_CORS_ORIGIN: 'ftp:\/\/files\.example' is not/],
  // `*` with named origins: which was meant? It used to allow any origin.
  [
    ['--cors-origin', '*', '--cors-origin', 'https://a.example'],
    {},
    /^ocs-server: --cors-origin: \* \(any origin\) cannot be mixed with named origins \(https:\/\/a\.example\): give \* alone, or only the origins\. Run ocs-server --help/,
  ],
  [['--cors-origin', 'https://a.example, *'], {}, /--cors-origin: \* \(any origin\) cannot be mixed/],
  [[], { OCS_CORS_ORIGIN: '*,https://a.example' }, /^ocs-server: OCS_CORS_ORIGIN: \* \(any origin\) cannot be mixed/],
  // A flag naming no origin used to turn CORS off, unsaid.
  [['--cors-origin='], {}, /^ocs-server: --cors-origin needs an origin \(scheme:\/\/host\[:port\]/],
  [['--cors-origin', ' , '], {}, /--cors-origin needs an origin/],
] as const)('refuses %j %j in one line, exit code 2', async (args, env, message) => {
  const result = await runCli(['serve', '--port', '0', '--data-dir', dataDir, ...args], { env });
  expect(result.code).toBe(2);
  expect(oneLine(result.stderr)).toMatch(message);
});

it('refuses --cors-origin on another command', async () => {
  const result = await runCli(['org', 'list', '--data-dir', dataDir, '--cors-origin', 'http://localhost:5173']);
  expect(result.code).toBe(2);
  expect(oneLine(result.stderr)).toMatch(/--cors-origin does not apply to org list/);
});

it('says a port in use in one line, exit code 1, before opening the store', async () => {
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as { port: number }).port;
  const fresh = mkdtempSync(join(tmpdir(), 'ocs-cors-cli-fresh-'));
  try {
    const result = await runCli(['serve', '--port', String(port), '--data-dir', fresh]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `ocs-server: port ${port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one).`,
    );
  } finally {
    holder.close();
    rmSync(fresh, { recursive: true, force: true });
  }
}, 60_000);
