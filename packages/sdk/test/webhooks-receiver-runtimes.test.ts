/**
 * The built `@ocs/sdk/webhooks/fetch` handler under `Deno.serve` and `Bun.serve`, each in its
 * own runtime (runtimes/, see scripts/test-support/runtimes.ts), driven over real HTTP by
 * support/remote-receiver-checks.ts. The server is support/fetch-receiver-server.mjs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRuntime } from '../../../scripts/test-support/runtimes.ts';
import { secret } from './support/receiver-contract.ts';
import { remoteReceiverChecks } from './support/remote-receiver-checks.ts';

const built = join(import.meta.dirname, '..', 'dist', 'webhooks', 'receivers', 'fetch.js');
const script = join(import.meta.dirname, 'support', 'fetch-receiver-server.mjs');

const runtimes = [
  {
    name: 'deno' as const,
    // Only what the server needs: loopback, and reading the built files.
    args: (deno: string) => [
      deno,
      'run',
      '--no-config',
      `--allow-net=127.0.0.1`,
      `--allow-read=${join(built, '..', '..', '..')}`,
      script,
      built,
      secret,
    ],
  },
  { name: 'bun' as const, args: (bun: string) => [bun, script, built, secret] },
];

describe.each(runtimes)('createFetchHandler under $name', ({ name, args }) => {
  let child: ChildProcess;
  let base: string;
  let announced: { runtime: string; version: string; port: number };
  const cwd = mkdtempSync(join(tmpdir(), `ocs-receiver-${name}-`));

  beforeAll(async () => {
    if (!existsSync(built))
      throw new Error('dist/ is missing: run `npm run build -w @ocs/sdk` (npm test builds first).');
    const [executable, ...rest] = args(requireRuntime(name)) as [string, ...string[]];
    // In an empty directory, so that no project file of this repository configures the runtime.
    child = spawn(executable, rest, { cwd, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening:\n${stderr}`)));
    });
    announced = JSON.parse(line);
    base = `http://127.0.0.1:${announced.port}`;
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid as number, 'SIGTERM');
      await exited;
    }
    rmSync(cwd, { recursive: true, force: true });
  });

  it(`runs in ${name} itself`, () => {
    expect(announced.runtime).toBe(name);
    expect(announced.version).toMatch(name === 'deno' ? /^2\./ : /^1\./);
  });

  remoteReceiverChecks(() => base);
});
