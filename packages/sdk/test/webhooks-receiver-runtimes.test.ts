/**
 * The built `@ocs/sdk/webhooks/fetch` handler under `Deno.serve` and `Bun.serve`, each in its
 * own runtime (runtimes/, see scripts/test-support/runtimes.ts), driven over real HTTP:
 * verified deliveries reach `onEvent` once, a failing `onEvent` answers 500 and its retry is
 * processed, and bad signatures answer 401 with their cause.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRuntime } from '../../../scripts/test-support/runtimes.ts';
import { sign } from '../src/webhooks/node.ts';
import { deliver, freshEvent, post, secret } from './support/receiver-contract.ts';

const built = join(import.meta.dirname, '..', 'dist', 'webhooks', 'receivers', 'fetch.js');
const script = join(import.meta.dirname, 'support', 'fetch-receiver-server.mjs');

const runtimes = [
  {
    name: 'deno' as const,
    // Only what the server needs: loopback, and reading the built files.
    args: (deno: string) => [deno, 'run', '--no-config', `--allow-net=127.0.0.1`, `--allow-read=${join(built, '..', '..', '..')}`, script, built, secret],
  },
  { name: 'bun' as const, args: (bun: string) => [bun, script, built, secret] },
];

describe.each(runtimes)('createFetchHandler under $name', ({ name, args }) => {
  let child: ChildProcess;
  let base: string;
  let announced: { runtime: string; version: string; port: number };
  const cwd = mkdtempSync(join(tmpdir(), `ocs-receiver-${name}-`));

  beforeAll(async () => {
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

  const calls = async () => (await (await fetch(`${base}/calls`)).json()) as string[];

  it(`runs in ${name} itself`, () => {
    expect(announced.runtime).toBe(name);
    expect(announced.version).toMatch(name === 'deno' ? /^2\./ : /^1\./);
  });

  it('answers 200 to a signed delivery and calls onEvent once; a repeat answers 200 without calling it', async () => {
    const event = freshEvent();
    const first = await deliver(`${base}/webhooks/ocs`, event);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'handled' });
    expect(await (await deliver(`${base}/webhooks/ocs`, event)).json()).toEqual({ status: 'duplicate' });
    expect((await calls()).filter((key) => key === event.idempotency_key)).toHaveLength(1);
  });

  it('answers 500 when onEvent throws, and processes the retry', async () => {
    const event = freshEvent('fail once');
    const failed = await deliver(`${base}/webhooks/ocs`, event);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ reason: 'handler_failed' });
    expect(await (await deliver(`${base}/webhooks/ocs`, event)).json()).toEqual({ status: 'handled' });
    expect(await (await deliver(`${base}/webhooks/ocs`, event)).json()).toEqual({ status: 'duplicate' });
    expect((await calls()).filter((key) => key === event.idempotency_key)).toHaveLength(2);
  });

  it('answers 401 with the cause of a bad signature, never calling onEvent', async () => {
    const event = freshEvent();
    const body = JSON.stringify(event);
    const url = `${base}/webhooks/ocs`;
    const answers = [
      await post(url, body),
      await deliver(url, event, 'whsec_someone_else_0123'),
      await post(url, JSON.stringify(event, null, 2), await sign(body, secret)),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
    const reasons = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { reason: string }).reason));
    expect(reasons).toEqual(['missing_signature', 'signature_mismatch', 'reserialized_body']);
    expect(await calls()).not.toContain(event.idempotency_key);
  });
});
