/**
 * A member that a pollution gadget puts on `Object.prototype` is no option of a call: not of a
 * named call (`requestId`, `headers`, `timeoutMs`...), not of `paginate`, not of a path API
 * request (`baseUrl`, `fetch`, `params`...). Read as one, a polluted `baseUrl` and `fetch`
 * would send a request, and its API key, to another host or through another fetch. Each case
 * runs with the members enumerable (as `obj.__proto__.x = ...` adds them) and not (as
 * `Object.defineProperty` may). The client's own options are tested in client.test.ts, the
 * params of both APIs in paths.test.ts.
 *
 * Node's fetch reads its own options from Object.prototype, whatever the SDK passes: `body`
 * and `headers` into every Request it builds or copies (a polluted `headers` replaces those of
 * a Request given to fetch, the key included), `signal` into every stream (aborting its
 * sockets), `query` into every request it sends. No client code can prevent that; so most
 * cases here send through a fetch of the client's own that builds no Request and records
 * what the SDK gave it, and the ones through Node's fetch pollute `baseUrl` or `fetch` alone.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCampaign, createClient, getCampaign, listLeads, paginate } from '../src/index.ts';
import { serializeQuery } from '../src/paths.ts';
import { clientOf, json, startServer } from './helpers/http.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const apiKey = 'ocs_test_0123456789';
const campaignBody = { success: true, campaign: { id: campaign_id } };
const leadsBody = { success: true, leads: [{ id: 'lead_1' }], total: 1, count: 1, has_more: false };
const polluted = Object.prototype as Record<string, unknown>;
const added: string[] = [];

/** Puts `members` on Object.prototype, enumerable or not; `restore` removes them. */
function pollute(members: Record<string, unknown>, enumerable: boolean) {
  for (const [name, value] of Object.entries(members)) {
    Object.defineProperty(polluted, name, { value, enumerable, configurable: true, writable: true });
    added.push(name);
  }
}
const restore = () => {
  for (const name of added.splice(0)) Reflect.deleteProperty(polluted, name);
};
// Also here, should a test fail before its own `finally`.
afterEach(restore);

const otherFetch = vi.fn(async () => Response.json({ success: true, polluted: true }));
afterEach(() => otherFetch.mockClear());

/** What a gadget may set, under the names of the options of a call, of paginate and of the path API. */
const gadget = {
  baseUrl: 'http://elsewhere.test',
  fetch: otherFetch,
  headers: { 'X-Polluted': 'yes' },
  requestId: 'req_polluted',
  idempotencyKey: 'key_polluted',
  // Each of these fails the call when read: a limit out of range, an aborted signal.
  timeoutMs: -1,
  maxRetries: -1,
  signal: AbortSignal.abort(),
  pageSize: 3,
  maxItems: 0,
  offset: 7,
  params: { query: { polluted: 'yes' } },
  query: { polluted: 'yes' },
  header: { 'X-Polluted-Param': 'yes' },
  parseAs: 'text',
  middleware: [{ onRequest: () => Response.json({ success: true, polluted: true }) }],
  querySerializer: () => 'polluted=yes',
  pathSerializer: () => '/polluted',
  deadline: 'polluted',
};

/**
 * A client on `http://ocs.test` whose fetch builds no Request and sends nothing: it records
 * the URL and the headers the SDK gave it, and answers as the service would.
 */
function recordingClient() {
  const sent: { url: string; headers: Headers }[] = [];
  const client = createClient({
    apiKey,
    baseUrl: 'http://ocs.test',
    fetch: async (input, init) => {
      const request =
        typeof input == 'string' ? { url: input, headers: new Headers(init?.headers) } : (input as Request);
      sent.push({ url: request.url, headers: request.headers });
      return Response.json(request.url.includes('/leads') ? leadsBody : campaignBody);
    },
  });
  /** `count` requests, each to the client's base URL with its key, nothing polluted; the polluted fetch never called. */
  const expectClean = (count: number) => {
    expect(otherFetch).not.toHaveBeenCalled();
    expect(sent).toHaveLength(count);
    for (const { url, headers } of sent) {
      expect(url).toMatch(/^http:\/\/ocs\.test\/v1\//);
      expect(url).not.toMatch(/polluted|limit/);
      expect(headers.get('authorization')).toBe(`Bearer ${apiKey}`);
      expect(headers.get('x-polluted')).toBeNull();
      expect(headers.get('x-polluted-param')).toBeNull();
      expect(headers.get('x-request-id')).not.toBe('req_polluted');
      expect(headers.get('idempotency-key')).not.toBe('key_polluted');
    }
  };
  return { client, sent, expectClean };
}

describe.each([
  ['enumerable', true],
  ['not enumerable', false],
])('a call reads no option from a polluted Object.prototype (%s)', (_name, enumerable) => {
  it.each([
    // A named call's URL is a string: it has no `body` of its own, and the SDK reads none.
    ['directly', false, { ...gadget, body: '{"polluted":true}' }],
    // Through the path API's runtime, which builds a Request: Node would read `body` into it.
    ['through client.use() middlewares', true, gadget],
  ])('named operations and paginate, %s', async (_how, hooked, members) => {
    const { client, sent, expectClean } = recordingClient();
    if (hooked) client.use({ onRequest: () => undefined });
    const results: unknown[] = [];
    pollute(members, enumerable);
    try {
      results.push(await getCampaign(client, { campaign_id }));
      results.push(await getCampaign(client, { campaign_id }, { requestId: 'req_mine' }));
      results.push(await createCampaign(client, { name: 'Q4' }));
      results.push(await paginate(client, listLeads, { campaign_id }).toArray({ limit: 10 }));
    } finally {
      restore();
    }
    expectClean(4);
    expect(sent.map(({ url }) => url)).toEqual([
      `http://ocs.test/v1/campaigns/${campaign_id}`,
      `http://ocs.test/v1/campaigns/${campaign_id}`,
      'http://ocs.test/v1/campaigns',
      `http://ocs.test/v1/leads?campaign_id=${campaign_id}&offset=0`,
    ]);
    expect(sent[1]?.headers.get('x-request-id')).toBe('req_mine');
    expect(results[0]).toMatchObject({ campaign: { id: campaign_id } });
    expect(results[3]).toEqual([{ id: 'lead_1' }]);
  });

  it('the path API, with and without params, a body and a signal of its own', async () => {
    const { client, sent, expectClean } = recordingClient();
    const results: unknown[] = [];
    pollute(gadget, enumerable);
    try {
      results.push(await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } }));
      results.push(await client.POST('/campaigns', { body: { name: 'Q4' }, signal: null }));
      results.push(await client.GET('/auth/verify'));
    } finally {
      restore();
    }
    expectClean(3);
    expect(sent.map(({ url }) => url)).toEqual([
      `http://ocs.test/v1/campaigns/${campaign_id}`,
      'http://ocs.test/v1/campaigns',
      'http://ocs.test/v1/auth/verify',
    ]);
    expect(results[0]).toMatchObject({ data: { campaign: { id: campaign_id } } });
  });

  // Through Node's fetch, to a server: enough alone to send a request, and its key, elsewhere.
  it.each([['baseUrl'], ['fetch']])('the path API, through Node’s fetch, %s alone', async (member) => {
    const service = await startServer((_request, response) => json(response, 200, campaignBody));
    const elsewhere = await startServer((_request, response) => json(response, 200, campaignBody));
    const client = clientOf(service);
    let result: unknown;
    pollute({ baseUrl: { baseUrl: elsewhere.baseUrl }, fetch: { fetch: otherFetch } }[member] ?? {}, enumerable);
    try {
      result = await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    } finally {
      restore();
    }
    // With the key it carried, should it have gone there.
    expect(elsewhere.received.map(({ url, headers }) => `${url} ${headers.authorization}`)).toEqual([]);
    expect(otherFetch).not.toHaveBeenCalled();
    expect(service.received.map(({ url, headers }) => `${url} ${headers.authorization}`)).toEqual([
      `/v1/campaigns/${campaign_id} Bearer ${apiKey}`,
    ]);
    expect(result).toMatchObject({ data: campaignBody });
  });
});

it("a query parameter's object value is sent with its own members only", () => {
  pollute({ polluted: 'yes' }, true);
  try {
    expect(serializeQuery({ a: { b: 'c' } })).toBe('a[b]=c');
  } finally {
    restore();
  }
});
