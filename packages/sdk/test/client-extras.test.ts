/**
 * What a caller reaches for, on a real node:http server: the raw Response of a named
 * operation, hooks (`client.use()`) that reach both APIs, extra headers per client and per
 * call, the `X-OCS-Client` and `User-Agent` headers, and debug logging with the key kept out.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  asResponse,
  createCampaign,
  getCampaign,
  listLeads,
  OcsNotFoundError,
  paginate,
  withResponse,
  type Middleware,
} from '../src/index.ts';
import { clientOf, json, startServer } from './helpers/http.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const campaign = { success: true, campaign: { id: campaign_id, name: 'Q4' } };
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
const answersCampaign = () =>
  startServer((_request, response) => json(response, 200, campaign, { 'X-Request-ID': 'req_raw_1' }));

afterEach(() => void vi.unstubAllEnvs());

describe('the raw Response of a named operation', () => {
  it('withResponse: the result and the Response it was read from', async () => {
    const server = await answersCampaign();
    const { data, response } = await withResponse(getCampaign, clientOf(server), { campaign_id });
    expect(data.campaign.id).toBe(campaign_id);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req_raw_1');
    expect(response.url).toBe(`${server.baseUrl}/campaigns/${campaign_id}`);
  });

  it('asResponse: the Response of a 2xx answer, body unread', async () => {
    const server = await answersCampaign();
    const response = await asResponse(getCampaign, clientOf(server), { campaign_id });
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual(campaign);
  });

  it('asResponse: an error answer still throws the typed error', async () => {
    const server = await startServer((_request, response) =>
      json(response, 404, { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'No such campaign.' }),
    );
    await expect(asResponse(getCampaign, clientOf(server), { campaign_id })).rejects.toBeInstanceOf(OcsNotFoundError);
  });
});

describe('hooks: client.use() reaches both APIs', () => {
  it('onRequest and onResponse run for named operations, paging and the path API, once per call', async () => {
    let first = true;
    const server = await startServer((request, response) => {
      // One 503 first: retries happen inside the call, under the hooks.
      if (first) return ((first = false), json(response, 503, { success: false, error: 'UPSTREAM_TIMEOUT' }));
      if (request.url.startsWith('/v1/leads')) {
        return json(response, 200, {
          success: true,
          leads: [],
          count: 0,
          total: 0,
          limit: 20,
          offset: 0,
          has_more: false,
        });
      }
      json(response, 200, campaign);
    });
    const client = clientOf(server);
    const seen: string[] = [];
    const hooks: Middleware = {
      onRequest({ request, schemaPath }) {
        seen.push(`request ${request.method} ${schemaPath}`);
        request.headers.set('X-Trace', 'trace-1');
      },
      onResponse({ response, schemaPath }) {
        seen.push(`response ${response.status} ${schemaPath}`);
      },
    };
    client.use(hooks);
    const result = await getCampaign(client, { campaign_id });
    expect(result.campaign.id).toBe(campaign_id);
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    await paginate(client, listLeads).toArray({ limit: 10 });
    expect(seen).toEqual([
      'request GET /campaigns/{campaign_id}',
      'response 200 /campaigns/{campaign_id}',
      'request GET /campaigns/{campaign_id}',
      'response 200 /campaigns/{campaign_id}',
      'request GET /leads',
      'response 200 /leads',
    ]);
    expect(server.received.map((request) => request.headers['x-trace'])).toEqual(Array(4).fill('trace-1'));

    client.eject(hooks);
    await getCampaign(client, { campaign_id });
    expect(seen).toHaveLength(6);
    expect(server.received.at(-1)?.headers['x-trace']).toBeUndefined();
  });

  it('a named call through hooks keeps its body, key, query and typed result', async () => {
    const server = await startServer((request, response) =>
      request.method === 'POST'
        ? json(response, 201, { success: true, campaign_id, campaign: null, message: 'created' })
        : json(response, 200, {
            success: true,
            leads: [{ id: 'l1' }],
            count: 1,
            total: 1,
            limit: 5,
            offset: 0,
            has_more: false,
          }),
    );
    const client = clientOf(server);
    client.use({ onResponse: () => undefined });
    const created = await createCampaign(client, { name: 'Q4' }, { idempotencyKey: 'k-1' });
    expect(created.campaign_id).toBe(campaign_id);
    expect(created.idempotencyKey).toBe('k-1');
    const leads = await listLeads(client, { campaign_id, limit: 5 });
    expect(leads.leads).toEqual([{ id: 'l1' }]);
    expect(server.received[0]).toMatchObject({ method: 'POST', url: '/v1/campaigns', body: '{"name":"Q4"}' });
    expect(server.received[0]?.headers['idempotency-key']).toBe('k-1');
    expect(server.received[1]?.url).toBe(`/v1/leads?campaign_id=${campaign_id}&limit=5`);
  });
});

describe('headers', () => {
  it('X-OCS-Client names the SDK, its version and the runtime; User-Agent too on Node', async () => {
    const server = await answersCampaign();
    const client = clientOf(server);
    await getCampaign(client, { campaign_id });
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    const expected = `ocs-sdk/${version} node/${process.versions.node}`;
    for (const request of server.received) {
      expect(request.headers['x-ocs-client']).toBe(expected);
      expect(request.headers['user-agent']).toBe(expected);
    }
  });

  it('extra headers per client and per call, on both APIs; Authorization stays the key', async () => {
    const server = await answersCampaign();
    const client = clientOf(server, { headers: { 'X-Team': 'growth', 'X-Env': 'staging', Authorization: 'nope' } });
    await getCampaign(client, { campaign_id }, { headers: { 'X-Env': 'prod', 'X-Call': '1' } });
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } }, headers: { 'X-Call': '2' } });
    expect(server.received.map(({ headers }) => [headers['x-team'], headers['x-env'], headers['x-call']])).toEqual([
      ['growth', 'prod', '1'],
      ['growth', 'staging', '2'],
    ]);
    for (const { headers } of server.received) expect(headers.authorization).toBe('Bearer ocs_test_0123456789');
  });
});

describe('debug logging', () => {
  const capture = () => {
    const lines: string[] = [];
    return {
      lines,
      logger: { warn: (line: string) => lines.push(`warn ${line}`), debug: (line: string) => lines.push(line) },
    };
  };

  it('prints each attempt, its answer and timing, and the retry with its reason; never the key', async () => {
    let first = true;
    const server = await startServer((_request, response) =>
      first
        ? ((first = false), json(response, 503, { success: false, error: 'UPSTREAM_TIMEOUT' }))
        : json(response, 200, campaign),
    );
    const { lines, logger } = capture();
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await getCampaign(clientOf(server, { debug: true, logger }), { campaign_id });
    const url = `GET ${server.baseUrl}/campaigns/${campaign_id}`;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^\\[@ocs/sdk\\] ${url} attempt 1: HTTP 503 .* in \\d+ ms; retry in 0 ms$`));
    expect(lines[1]).toMatch(new RegExp(`^\\[@ocs/sdk\\] ${url} attempt 2: HTTP 200 .* in \\d+ ms$`));
    expect(lines.join('\n')).not.toContain('0123456789');
    vi.restoreAllMocks();
  });

  it('prints a connection failure', async () => {
    const server = await startServer((_request, response) => response.socket?.destroy());
    const { lines, logger } = capture();
    await getCampaign(clientOf(server, { debug: true, logger, maxRetries: 0 }), { campaign_id }).catch(() => {});
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/attempt 1: .*(socket|closed|other side).* in \d+ ms$/);
  });

  it('OCS_LOG=debug turns it on; off by default', async () => {
    const server = await answersCampaign();
    const off = capture();
    await getCampaign(clientOf(server, { logger: off.logger }), { campaign_id });
    expect(off.lines).toEqual([]);
    vi.stubEnv('OCS_LOG', 'debug');
    const on = capture();
    await getCampaign(clientOf(server, { logger: on.logger }), { campaign_id });
    expect(on.lines).toHaveLength(1);
    expect(on.lines[0]).toContain('attempt 1: HTTP 200 (request req_raw_1)');
  });
});

// What `ClientOptions.fetch` and the README's "A fetch of your own" promise: the SDK calls the
// fetch given in both of the global fetch's forms, so the fetch must accept both (node-fetch v2,
// which reads a Request as a URL, cannot be it).
describe('a fetch of your own', () => {
  it('gets a URL string and an init from named operations, a Request and { signal } from the path API and hooked calls', async () => {
    const server = await answersCampaign();
    const calls: { input: string; init: string[] }[] = [];
    const client = clientOf(server, {
      fetch: (input, init) => {
        calls.push({
          input: typeof input === 'string' ? 'string' : input instanceof Request ? 'Request' : 'URL',
          init: Object.keys(init ?? {}).sort(),
        });
        return fetch(input, init);
      },
    });
    await getCampaign(client, { campaign_id });
    await createCampaign(client, { name: 'Q4' });
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    client.use({ onRequest: () => undefined });
    await getCampaign(client, { campaign_id });
    expect(calls).toEqual([
      { input: 'string', init: ['body', 'headers', 'method', 'signal'] },
      { input: 'string', init: ['body', 'headers', 'method', 'signal'] },
      { input: 'Request', init: ['signal'] },
      { input: 'Request', init: ['signal'] },
    ]);
    expect(server.received).toHaveLength(4);
  });
});
