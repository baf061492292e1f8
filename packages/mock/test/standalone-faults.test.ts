/**
 * The standalone mock's faults are real socket faults, and its journal is read over the
 * control routes: a TCP reset (the client reads ECONNRESET), a body cut off after the headers
 * (the client reads part of it, then the connection closes), a request left hanging until the
 * client gives up, seeded chaos, each through raw HTTP and the SDK's retries and deadline;
 * `GET /__ocs-mock/requests` with the same redaction and erasure as `mock.requests`; and the
 * built `ocs-mock` with `--journal-limit`.
 */
import { request as httpRequest } from 'node:http';
import {
  createAccountConnectLink,
  createCampaign,
  createClient,
  createLead,
  deleteLead,
  getCampaign,
  listCampaigns,
  OcsConnectionError,
  OcsTimeoutError,
} from '@ocs/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, type OcsMockRequest, startMockServer } from '../src/node/index.ts';
import { faultOutcome } from './support/fault-outcome.ts';
import { ocsMockBin, requireBuilds, stopAll, watch } from './support/local-processes.ts';

let server: MockServer;
let origin: string;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 12 });
  origin = server.url.replace(/\/v1$/, '');
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

const client = (options: Parameters<typeof createClient>[0] = {}) =>
  createClient({ apiKey: server.apiKey, baseUrl: server.url, logger: { warn() {} }, ...options });
const campaign_id = () => server.data.campaigns[0]?.id ?? '';
const get = (path: string) => fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${server.apiKey}` } });

async function control(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${origin}/__ocs-mock/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
}
async function scenario(body: unknown): Promise<void> {
  const response = await control('POST', 'scenarios', body);
  expect(response.status, await response.clone().text()).toBe(204);
}
async function journal(query = ''): Promise<{ requests: OcsMockRequest[]; dropped: number; limit: number }> {
  const response = await control('GET', `requests${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { requests: OcsMockRequest[]; dropped: number; limit: number };
}
/** The error code under fetch's `TypeError` (undici puts the socket's error in `cause`). */
const causeCode = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code;

describe('networkError: a TCP reset', () => {
  it('resets the socket: fetch fails with ECONNRESET, and nothing is written', async () => {
    await scenario({ networkError: { operations: ['createCampaign'], times: 1 } });
    const error = await fetch(`${server.url}/campaigns`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Lost' }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(causeCode(error)).toBe('ECONNRESET');
    expect((await listCampaigns(client())).total).toBe(3);
    expect((await journal('?operation=createCampaign')).requests.map((entry) => entry.fault)).toEqual(['networkError']);
  });

  it('the SDK retries a GET through it; a POST without Idempotency-Key gets OcsConnectionError at once', async () => {
    server.scenarios.networkError({ operations: ['listCampaigns'], times: 2 });
    expect((await listCampaigns(client())).total).toBe(3);
    expect(server.requests.of('listCampaigns').map((entry) => entry.fault)).toEqual([
      'networkError',
      'networkError',
      null,
    ]);
    server.scenarios.networkError({ times: 1 });
    const error = await createAccountConnectLink(client(), { platform: 'email' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect((error as Error).message).toMatch(/failed 1x: read ECONNRESET/);
  });
});

describe('truncate: a body cut off on the socket', () => {
  it('writes the status, the headers with the whole Content-Length, `after` bytes, then closes', async () => {
    await scenario({ truncate: { operations: ['listCampaigns'], after: 40, times: 1 } });
    const { status, headers, received, error } = await new Promise<{
      status: number | undefined;
      headers: Record<string, unknown>;
      received: Buffer;
      error: string;
    }>((resolve) => {
      const chunks: Buffer[] = [];
      const request = httpRequest(`${server.url}/campaigns`, { headers: { Authorization: `Bearer ${server.apiKey}` } });
      request.on('response', (response) => {
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        // The cut surfaces as an incomplete response ('aborted'), its error handled here.
        response.on('error', () => {});
        response.on('close', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            received: Buffer.concat(chunks),
            error: response.complete ? 'complete' : 'aborted',
          }),
        );
      });
      request.end();
    });
    expect(status).toBe(200);
    expect(error).toBe('aborted');
    expect(received.length).toBe(40);
    const entry = server.requests.last('listCampaigns');
    const whole = Buffer.from(JSON.stringify(entry?.response?.body));
    expect(Number(headers['content-length'])).toBe(whole.length);
    expect(received.equals(whole.subarray(0, 40))).toBe(true);
    expect(headers['x-request-id']).toMatch(/\S/);
    expect(entry?.fault).toBe('truncate');
  });

  it('the SDK retries a cut GET; a cut create is retried with its key and replayed: one campaign', async () => {
    server.scenarios.truncate({ operations: ['getCampaign'], times: 1 });
    expect((await getCampaign(client(), { campaign_id: campaign_id() })).campaign.id).toBe(campaign_id());
    expect(server.requests.of('getCampaign').map((entry) => entry.fault)).toEqual(['truncate', null]);

    server.scenarios.truncate({ operations: ['createCampaign'], times: 1 });
    const created = await createCampaign(client(), { name: 'Once over TCP' });
    const [cut, replay] = server.requests.of('createCampaign');
    expect(cut?.response?.status === 201 && cut.response.body.campaign_id).toBe(created.campaign_id);
    expect(replay?.response?.status === 201 && replay.response.body.campaign_id).toBe(created.campaign_id);
    expect((await listCampaigns(client())).total).toBe(4);

    server.scenarios.truncate({ times: 1 });
    const error = await createAccountConnectLink(client(), { platform: 'email' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect((error as Error).message).toMatch(/the answer was cut off/);
  });

  it('a cut answer carries the CORS headers, so a page sees the cut and not a CORS refusal', async () => {
    server.scenarios.truncate({ times: 1 });
    const response = await fetch(`${server.url}/campaigns`, {
      headers: { Authorization: `Bearer ${server.apiKey}`, Origin: 'http://localhost:5173' },
    });
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    await expect(response.text()).rejects.toThrow(TypeError);
  });
});

describe('hang: no answer until the client gives up', () => {
  it("ends at the SDK's timeoutMs with OcsTimeoutError, and the mock sees the socket close", async () => {
    server.scenarios.hang({ operations: ['getCampaign'], times: 1 });
    const error = await getCampaign(client({ timeoutMs: 300 }), { campaign_id: campaign_id() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OcsTimeoutError);
    // The hang ended because the client's socket closed (durationMs is set when it ends).
    let entry = server.requests.last('getCampaign');
    for (let i = 0; i < 100 && entry?.durationMs === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      entry = server.requests.last('getCampaign');
    }
    expect(entry).toMatchObject({ fault: 'hang', response: null });
    expect(entry?.durationMs).toBeGreaterThanOrEqual(250);
    expect((await getCampaign(client(), { campaign_id: campaign_id() })).campaign.id).toBe(campaign_id());
  });

  it('the reset route ends a hang with a TCP reset', async () => {
    await scenario({ hang: {} });
    const pending = get('/campaigns').catch((e: unknown) => e);
    for (let i = 0; i < 100 && (await journal()).requests.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await journal()).requests[0]).toMatchObject({ fault: 'hang', durationMs: null });
    expect((await control('POST', 'reset')).status).toBe(204);
    expect(causeCode(await pending)).toBe('ECONNRESET');
  });

  it('close() does not wait for a hanging request', async () => {
    const own = await startMockServer({ port: 0, seed: 12 });
    own.scenarios.hang();
    const pending = fetch(`${own.url}/campaigns`).catch((e: unknown) => e);
    for (let i = 0; i < 100 && own.requests.all().length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await own.close();
    expect(await pending).toBeInstanceOf(TypeError);
  });
});

describe('chaos over HTTP', () => {
  /** 30 GETs in a row; what each got. */
  async function run(seed: number): Promise<Array<string | number>> {
    await control('POST', 'reset');
    await scenario({ chaos: { rate: 0.3, seed, retryAfter: 0 } });
    const outcomes: Array<string | number> = [];
    for (let i = 0; i < 30; i++) {
      outcomes.push(await faultOutcome(get('/campaigns'), (e) => `reset:${causeCode(e)}`));
    }
    return outcomes;
  }

  it('the same seed gives the same socket faults to the same requests', async () => {
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    expect(first).toContain('reset:ECONNRESET');
    expect(first).toContain('cut');
    expect(first).toContain(503);
    // The SDK gets through it.
    expect((await listCampaigns(client({ maxRetries: 8 }))).total).toBe(3);
  });
});

describe('the journal over the control routes', () => {
  it('lists requests (by operation too) with the key redacted; DELETE and reset clear it', async () => {
    await createCampaign(client(), { name: 'Seen' });
    await listCampaigns(client());
    const all = await journal();
    expect(all.limit).toBe(1000);
    expect(all.dropped).toBe(0);
    expect(all.requests.map((entry) => entry.operationId)).toEqual(['createCampaign', 'listCampaigns']);
    expect(all.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/campaigns',
      body: { name: 'Seen' },
      headers: { authorization: 'Bearer [redacted]' },
      response: { status: 201 },
    });
    expect(JSON.stringify(all)).not.toContain(server.apiKey);
    expect((await journal('?operation=listCampaigns')).requests).toHaveLength(1);
    const unknown = await control('GET', 'requests?operation=launchRocket');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: expect.stringMatching(/unknown operationId/) });

    expect((await control('DELETE', 'requests')).status).toBe(204);
    expect((await journal()).requests).toEqual([]);
    await listCampaigns(client());
    await control('POST', 'reset');
    expect((await journal()).requests).toEqual([]);
  });

  it('an erased lead leaves it', async () => {
    const marker = `zq${crypto.randomUUID().slice(0, 8)}`;
    const { lead } = await createLead(client(), { email: `${marker}@example.com`, first_name: `${marker}first` });
    await deleteLead(client(), { lead_id: lead.id });
    const text = JSON.stringify(await journal());
    expect(text).toContain(lead.id);
    expect(text).not.toContain(marker);
  });

  it('refuses a scenario it cannot run, with the reason', async () => {
    const refused = await control('POST', 'scenarios', { chaos: { rate: 5, seed: 1 } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: expect.stringMatching(/rate must be from 0 to 1/) });
  });

  it.each([
    [{}, /name a scenario: one of clear, fail, latency/],
    [[], /the body must be a JSON object naming a scenario/],
    [null, /the body must be a JSON object naming a scenario/],
    [{ bogus: {} }, /no scenario "bogus"; the scenarios are/],
    [{ netwokError: { times: 1 } }, /no scenario "netwokError"/],
    [{ hang: { operations: 'getCampaign' } }, /hang\.operations must be an array of operationIds/],
    [{ networkError: { times: 'x' } }, /networkError\.times must be a number, got "x"/],
    [{ networkError: { times: 0 } }, /networkError\.times must be 1 or more/],
    [{ rateLimit: { perEndpoint: 'x' } }, /rateLimit\.perEndpoint must be a number/],
    [{ rateLimit: { windowMs: 0 } }, /rateLimit\.windowMs must be a whole number >= 1/],
    [{ unavailable: { code: 'NOPE' } }, /unavailable\.code must be UPSTREAM_TIMEOUT or AUTH_UNAVAILABLE/],
    [{ latency: 200 }, /latency takes an object/],
    [{ latency: { ms: 'slow' } }, /latency\.ms must be a number/],
    [
      { fail: { operationId: 'listCampaigns', status: 429, code: 'RATE_LIMITED', times: 0 } },
      /fail\.times must be 1 or more/,
    ],
    [{ clear: false }, /clear must be true/],
  ])('answers 400 naming the problem for %j', async (body, reason) => {
    const refused = await control('POST', 'scenarios', body);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(reason) });
  });

  it('answers 400 to a body that is not JSON, and a 400 applies none of the scenarios named', async () => {
    const notJson = await fetch(`${origin}/__ocs-mock/scenarios`, { method: 'POST', body: 'hang please' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ error: expect.stringMatching(/the body must be JSON/) });

    const refused = await control('POST', 'scenarios', {
      unavailable: { times: 1 },
      networkError: { times: -1 },
    });
    expect(refused.status).toBe(400);
    expect((await get('/campaigns')).status).toBe(200);
  });
});

describe('ocs-mock (the built command)', () => {
  afterAll(() => stopAll());

  it('--journal-limit bounds the journal; its faults are socket faults too', async () => {
    requireBuilds();
    const mock = watch(ocsMockBin, ['--port', '0', '--json', '--journal-limit', '2']);
    const [line = ''] = await mock.waitFor(/\{.*\}/);
    const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
    const base = url.replace(/\/v1$/, '');
    const sdk = createClient({ apiKey, baseUrl: url, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await listCampaigns(sdk);
    const read = async () =>
      (await (await fetch(`${base}/__ocs-mock/requests`)).json()) as {
        requests: unknown[];
        dropped: number;
        limit: number;
      };
    expect(await read()).toMatchObject({ limit: 2, dropped: 1 });
    expect((await read()).requests).toHaveLength(2);
    await fetch(`${base}/__ocs-mock/scenarios`, {
      method: 'POST',
      body: JSON.stringify({ networkError: { times: 1 } }),
    });
    const error = await fetch(url + '/campaigns', { headers: { Authorization: `Bearer ${apiKey}` } }).catch(
      (e: unknown) => e,
    );
    expect(causeCode(error)).toBe('ECONNRESET');
    expect(await mock.stop('SIGTERM')).toBe(0);
  });
});
