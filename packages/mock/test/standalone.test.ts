/**
 * The standalone mock over real HTTP: `startMockServer()` with the SDK, its control routes
 * for other languages' suites, its sandbox operations delivering to a loopback receiver, and
 * the `ocs-mock` command (the built bin, as `npx` runs it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  advanceSandboxClock,
  createCampaign,
  createClient,
  createWebhook,
  getSandboxClock,
  listCampaigns,
  listLeads,
  OcsRateLimitError,
  paginate,
  simulateReply,
} from '@ocs/sdk';
import { verifySignature } from '@ocs/sdk/webhooks';
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

  it('has a read-only url, apiKey and deep-frozen data', () => {
    const writable = server as { apiKey: string; url: string };
    expect(() => {
      writable.apiKey = 'ocs_other';
    }).toThrow(TypeError);
    expect(() => {
      writable.url = 'http://127.0.0.1:1/v1';
    }).toThrow(TypeError);
    expect(Object.isFrozen(server.data.campaigns[0])).toBe(true);
  });

  it('serves on IPv6 loopback, with the address bracketed in its URL', async () => {
    const six = await startMockServer({ port: 0, seed: 3, host: '::1' });
    try {
      expect(six.url).toMatch(/^http:\/\/\[::1\]:\d+\/v1$/);
      const client = createClient({ apiKey: six.apiKey, baseUrl: six.url });
      expect((await listCampaigns(client)).campaigns.length).toBeGreaterThan(0);
    } finally {
      await six.close();
    }
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

describe('startMockServer: the sandbox operations', () => {
  let server: MockServer;
  let hook: Server;
  let hookUrl: string;
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  beforeAll(async () => {
    server = await startMockServer({ port: 0, seed: 4, allowInsecureWebhooks: true });
    // The receiver under test: a real socket on loopback, answering 204.
    hook = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/ocs`;
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => hook?.close(resolve));
  });
  const client = () => createClient({ apiKey: server.apiKey, baseUrl: server.url, maxRetries: 0 });

  it('advances the clock and delivers a simulated reply over HTTP before answering', async () => {
    const secret = 'whsec_standalone_0123456789';
    const campaign = server.data.campaigns[0];
    const lead = server.data.leads.find((l) => l.enrolments[0]?.campaign_id === campaign?.id);
    if (!campaign || !lead) throw new Error('seeded data missing');
    await createWebhook(client(), { campaign_id: campaign.id, webhook_url: hookUrl, secret });

    const { ran } = await advanceSandboxClock(client(), { seconds: 1 });
    expect(ran.steps_run).toBeGreaterThan(0);
    expect(await server.sandbox.messages(campaign.id, { leadId: lead.id })).toHaveLength(1);
    const { reply } = await simulateReply(client(), {
      campaign_id: campaign.id,
      lead_id: lead.id,
      channel: 'email',
      message: 'Interested, send me a time.',
    });

    expect(received).toHaveLength(1);
    const [got] = received;
    const signature = got?.headers['x-signature-256'];
    expect(await verifySignature({ payload: got?.body ?? '', signature, secret })).toBe(true);
    expect(signature).toBe(
      `sha256=${createHmac('sha256', secret)
        .update(got?.body ?? '')
        .digest('hex')}`,
    );
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({
      idempotency_key: reply.delivery?.idempotency_key,
      prospect_message: 'Interested, send me a time.',
    });

    const origin = server.url.replace(/\/v1$/, '');
    expect((await fetch(`${origin}/__ocs-mock/reset`, { method: 'POST' })).status).toBe(204);
    expect((await getSandboxClock(client())).clock.offset_seconds).toBe(0);
    expect(await server.sandbox.deliveries(campaign.id)).toEqual([]);
  });
});

describe('npx ocs-mock', () => {
  const bin = join(import.meta.dirname, '..', 'bin', 'ocs-mock.cjs');
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('prints the base URL and the API key, serves, and stops on SIGTERM', async () => {
    if (!existsSync(join(import.meta.dirname, '..', 'dist', 'server', 'cli.cjs'))) {
      throw new Error('dist/ is missing: run `npm run build -w @ocs/mock` (its test script builds first).');
    }
    child = spawn(process.execPath, [bin, '--port', '0', '--seed', '3', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [line] = (await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line')) as [string];
    const started = JSON.parse(line) as { url: string; apiKey: string };
    const client = createClient({ apiKey: started.apiKey, baseUrl: started.url });
    expect((await listCampaigns(client)).campaigns.map((c) => c.name)).toContain('Q4 Founders Outreach');
    // The sandbox operations are served too (the mock runs in sandbox mode).
    expect((await getSandboxClock(client)).clock.offset_seconds).toBe(0);

    // The same seed gives the same key in another process.
    const inProcess = await startMockServer({ port: 0, seed: 3 });
    expect(inProcess.apiKey).toBe(started.apiKey);
    await inProcess.close();

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    child = undefined;
  });

  it('takes a negative seed as createOcsMock does, with the same data', async () => {
    const negative = spawn(process.execPath, [bin, '--port', '0', '--seed=-7', '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [line] = (await once(createInterface({ input: negative.stdout as NodeJS.ReadableStream }), 'line')) as [
        string,
      ];
      const inProcess = await startMockServer({ port: 0, seed: -7 });
      expect((JSON.parse(line) as { apiKey: string }).apiKey).toBe(inProcess.apiKey);
      await inProcess.close();
    } finally {
      negative.kill('SIGTERM');
      await once(negative, 'exit');
    }
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
    expect(error).toBe(
      "ocs-mock: --port must be an integer from 0 to 65535, got 'abc'. Run ocs-mock --help for usage.\n",
    );
  });
});
