/**
 * The standalone mock over real HTTP: `startMockServer()` with the SDK, its control routes
 * for other languages' suites, and the `ocs-mock` command (the built bin, as `npx` runs it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createCampaign, createClient, listCampaigns, listLeads, OcsRateLimitError, paginate } from '@ocs/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

describe('startMockServer', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, seed: 3 });
  });
  afterAll(() => server?.close());
  const client = () => createClient({ apiKey: server.apiKey, baseUrl: server.url, maxRetries: 0 });

  it('serves the API on a socket: create, list, page', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    await createCampaign(client(), { name: 'Over HTTP' });
    expect((await listCampaigns(client())).total).toBe(4);
    const leads = await paginate(client(), listLeads, {}, { pageSize: 8 }).toArray({ limit: 1000 });
    expect(leads).toHaveLength(30);
    const document = await fetch(server.url.replace(/\/v1$/, '/openapi.json'));
    expect((await document.json()) as object).toHaveProperty('openapi');
  });

  it('resets, shows its data and takes scenarios through the control routes', async () => {
    const origin = server.url.replace(/\/v1$/, '');
    expect((await fetch(`${origin}/__ocs-mock/reset`, { method: 'POST' })).status).toBe(204);
    expect((await listCampaigns(client())).total).toBe(3);

    const data = (await (await fetch(`${origin}/__ocs-mock/data`)).json()) as { apiKey: string };
    expect(data.apiKey).toBe(server.apiKey);

    const scenario = await fetch(`${origin}/__ocs-mock/scenarios`, {
      method: 'POST',
      body: JSON.stringify({
        fail: { operationId: 'listCampaigns', status: 429, code: 'RATE_LIMITED', retryAfter: 9 },
      }),
    });
    expect(scenario.status).toBe(204);
    const error = await listCampaigns(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsRateLimitError);
    expect((error as OcsRateLimitError).retryAfter).toBe(9);

    const refused = await fetch(`${origin}/__ocs-mock/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ fail: { operationId: 'createCampaign', status: 404, code: 'NOT_FOUND' } }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: expect.stringMatching(/does not document the error status 404/),
    });
    server.reset();
  });
});

describe('npx ocs-mock', () => {
  const bin = join(import.meta.dirname, '..', 'bin', 'ocs-mock.js');
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('prints the base URL and the API key, serves, and stops on SIGTERM', async () => {
    if (!existsSync(join(import.meta.dirname, '..', 'dist', 'server', 'cli.js'))) {
      throw new Error('dist/ is missing: run `npm run build -w @ocs/mock` (its test script builds first).');
    }
    child = spawn(process.execPath, [bin, '--port', '0', '--seed', '3', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [line] = (await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line')) as [string];
    const started = JSON.parse(line) as { url: string; apiKey: string };
    const client = createClient({ apiKey: started.apiKey, baseUrl: started.url });
    expect((await listCampaigns(client)).campaigns.map((c) => c.name)).toContain('Q4 Founders Outreach');

    // The same seed gives the same key in another process.
    const inProcess = await startMockServer({ port: 0, seed: 3 });
    expect(inProcess.apiKey).toBe(started.apiKey);
    await inProcess.close();

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    child = undefined;
  });

  it('explains its options and refuses a bad one', async () => {
    const help = spawn(process.execPath, [bin, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    help.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
    expect(((await once(help, 'exit')) as [number])[0]).toBe(0);
    expect(text).toMatch(/--seed <n>/);

    const bad = spawn(process.execPath, [bin, '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let error = '';
    bad.stderr?.on('data', (chunk: Buffer) => (error += chunk.toString()));
    expect(((await once(bad, 'exit')) as [number])[0]).toBe(2);
    expect(error).toMatch(/--port must be a whole number/);
  });
});
