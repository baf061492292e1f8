/**
 * What createClient sends and what a call returns: the auth header, the base URL, request
 * IDs, rate limits, the result's metadata, deprecation warnings, and how the flat params
 * of a named operation land in the path, the query and the body.
 */
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createCampaign,
  createClient,
  createLead,
  createOcs,
  deleteLead,
  getCampaign,
  listDeals,
  listLeads,
  listWebhookExamplesLegacy,
  OcsError,
  OcsNotFoundError,
  OcsResult,
  paginate,
  resultMeta,
  updateSequenceStep,
  type ClientOptions,
} from '../src/index.ts';
import { successResponseSchemas } from '../src/zod.ts';
import { apiKey, baseUrl, bodies, errorBody, testClient, useMsw } from './helpers/msw.ts';

const { server, seen } = useMsw();
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const campaignUrl = `${baseUrl}/campaigns/${campaign_id}`;
const campaignBody = { success: true, campaign: { id: campaign_id, name: 'Q4 Founders Outreach' } };
const fullCampaign = {
  id: campaign_id,
  name: 'Q4 Founders Outreach',
  is_active: true,
  created_at: '2026-10-05T09:00:00+00:00',
  updated_at: '2026-10-05T09:00:00+00:00',
};
const rateHeaders = {
  'X-Request-ID': 'req_header_7',
  'RateLimit-Limit': '100',
  'RateLimit-Remaining': '97',
  'RateLimit-Reset': '42',
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('construction', () => {
  it.each([
    [undefined, /none given; pass apiKey or set OCS_API_KEY/],
    ['', /none given/],
    ['Bearer ocs_abc', /without "Bearer "/],
    ['bearer ocs_abc', /without "Bearer "/],
    ['ocs_abc\n', /no spaces/],
    ['ocs_ abc', /no spaces/],
    ['ocsabc', /a prefix, "_" and the secret/],
    ['ocs_', /a prefix, "_" and the secret/],
    ['_abc', /a prefix, "_" and the secret/],
    ['ocs_abc!', /a prefix, "_" and the secret/],
  ])('refuses the API key %j', (key, message) => {
    vi.stubEnv('OCS_API_KEY', '');
    expect(() => createClient({ apiKey: key, baseUrl })).toThrow(OcsError);
    expect(() => createClient({ apiKey: key, baseUrl })).toThrow(message);
  });

  it('refuses a base URL that is not absolute http(s)', () => {
    for (const url of ['api.example.com', 'ftp://api.example.com', '/v1', 'http://']) {
      expect(() => createClient({ apiKey, baseUrl: url })).toThrow(/Invalid baseUrl .*absolute http\(s\) URL/);
    }
  });

  it.each([
    ['http://ocs.test/v1?tenant=acme', 'has a query string'],
    ['http://ocs.test?x=1', 'has a query string'],
    ['http://ocs.test/ocs/#v1', 'has a fragment'],
    ['http://ocs.test/v1/?', 'has a query string'],
    ['https://ocs.test/v1#', 'has a fragment'],
    ['http://localhost:99999', 'new URL (and so every fetch) refuses'],
    ['http://ocs.test:65536/v1', 'new URL (and so every fetch) refuses'],
    ['http://ocs.test:port', 'new URL (and so every fetch) refuses'],
    ['http://exa<mple.com', 'new URL (and so every fetch) refuses'],
    ['http://1.2.3.999', 'new URL (and so every fetch) refuses'],
  ])('refuses the base URL %s, which %s, at creation', (url) => {
    expect(() => createClient({ apiKey, baseUrl: url })).toThrow(OcsError);
    expect(() => createClient({ apiKey, baseUrl: url })).toThrow(
      `Invalid baseUrl "${url}": expected an absolute http(s) URL, no query or fragment.`,
    );
  });

  it('takes the base URLs new URL takes: the highest port, an IPv6 address, a path', () => {
    for (const url of ['http://127.0.0.1:65535', 'http://[::1]:4011/v1', 'https://ocs.test/api/']) {
      expect(() => createClient({ apiKey, baseUrl: url })).not.toThrow();
    }
    vi.stubEnv('OCS_BASE_URL', 'http://ocs.test:99999');
    expect(() => createClient({ apiKey })).toThrow('Invalid baseUrl "http://ocs.test:99999"');
  });

  it.each(['x', {}, 42, true])('refuses a fetch that is not a function (%j), at creation', (fetch) => {
    const create = () => createClient({ apiKey, baseUrl, fetch: fetch as never });
    expect(create).toThrow(OcsError);
    expect(create).toThrow('Invalid fetch: expected a function.');
  });

  it('takes fetch undefined or null as no fetch: the global one, as before', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    for (const fetch of [undefined, null]) {
      await getCampaign(createClient({ apiKey, baseUrl, fetch: fetch as never }), { campaign_id });
    }
    expect(seen).toHaveLength(2);
  });

  it.each([
    ['timeout', 5_000],
    ['baseURL', 'http://ocs.test'],
    ['retries', 1],
    ['signal', AbortSignal.timeout(1_000)],
  ])('refuses the unknown option %s, naming it and the type that lists the options', (name, value) => {
    const create = () => createClient({ apiKey, baseUrl, [name]: value });
    expect(create).toThrow(OcsError);
    expect(create).toThrow(`Unknown option "${name}": not one of ClientOptions.`);
  });

  it('reports an unknown option first, even one set to undefined', () => {
    vi.stubEnv('OCS_API_KEY', '');
    // `apikey` for `apiKey`: the misspelt name is the error, not the key it left missing.
    expect(() => createClient({ apikey: apiKey } as never)).toThrow(/^Unknown option "apikey"/);
    expect(() => createClient({ apiKey, baseUrl, timeout: undefined } as never)).toThrow(/^Unknown option "timeout"/);
  });

  describe("reads only the options object's own string keys", () => {
    const polluted = Object.prototype as Record<string, unknown>;
    /** Creates a client while Object.prototype holds `members`, then removes them. */
    const createPolluted = (members: PropertyDescriptorMap, options: ClientOptions) => {
      Object.defineProperties(polluted, members);
      try {
        return createClient(options);
      } finally {
        for (const name in members) Reflect.deleteProperty(polluted, name);
      }
    };

    it('ignores what a pollution gadget adds to Object.prototype (enumerable), and symbol keys', async () => {
      vi.stubEnv('OCS_BASE_URL', baseUrl);
      // As `obj.__proto__.x = ...` adds them: a known option's name, and an unknown one.
      const gadget = { value: 'http://polluted.test', enumerable: true, configurable: true, writable: true };
      const client = createPolluted(
        { baseUrl: gadget, timeout: { ...gadget, value: 5_000 } },
        // A symbol key cannot be a misspelt option (a framework's mark, say): not refused.
        { apiKey, [Symbol('brand')]: true } as ClientOptions,
      );
      server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
      await getCampaign(client, { campaign_id });
      expect(seen.map((request) => request.url.href)).toEqual([campaignUrl]);
    });

    it('never takes an option from Object.prototype, even one no for...in sees', async () => {
      const inherited = { configurable: true, writable: true };
      const client = createPolluted(
        {
          headers: { ...inherited, value: { 'X-Polluted': 'yes' } },
          maxRetries: { ...inherited, value: 0 },
        },
        { apiKey, baseUrl },
      );
      server.use(
        http.get(campaignUrl, () =>
          seen.length === 1
            ? HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 })
            : HttpResponse.json(campaignBody),
        ),
      );
      vi.spyOn(Math, 'random').mockReturnValue(0); // no backoff wait
      await getCampaign(client, { campaign_id });
      expect(seen).toHaveLength(2); // the default maxRetries, 2
      expect(seen[0]?.headers.get('x-polluted')).toBeNull();
    });
  });

  it('takes every option of ClientOptions', async () => {
    // Required: an option added to ClientOptions must be added here, and read by createClient.
    const options: Required<ClientOptions> = {
      apiKey,
      baseUrl,
      timeoutMs: 5_000,
      maxRetries: 0,
      maxRetryAfterMs: 1_000,
      headers: { 'X-Team': 'growth' },
      debug: false,
      logger: { warn: () => {} },
      fetch: (input, init) => fetch(input, init),
      validate: {},
    };
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    await getCampaign(createClient(options), { campaign_id });
    expect(seen[0]?.headers.get('x-team')).toBe('growth');
  });

  it('createOcs checks the options it is given the same way, and takes a client as it is', () => {
    expect(() => createOcs({ apiKey, baseUrl, timeout: 5_000 } as never)).toThrow(/^Unknown option "timeout"/);
    expect(() => createOcs({ apiKey, baseUrl, fetch: 'x' as never })).toThrow('Invalid fetch: expected a function.');
    const client = testClient();
    expect(createOcs(client).client).toBe(client);
    expect(createOcs({ apiKey, baseUrl, maxRetries: 0 }).client).not.toBe(client);
  });

  it('refuses OCS_BASE_URL with a query string the same way', () => {
    vi.stubEnv('OCS_BASE_URL', 'http://ocs.test/v1?tenant=acme');
    expect(() => createClient({ apiKey })).toThrow(/Invalid baseUrl .*no query or fragment/);
  });

  it.each([
    [{ timeoutMs: NaN }, /Invalid timeoutMs NaN: expected ms above 0/],
    [{ timeoutMs: 0 }, /Invalid timeoutMs 0/],
    [{ timeoutMs: -5 }, /Invalid timeoutMs -5/],
    [{ maxRetries: NaN }, /Invalid maxRetries NaN: expected a whole number, 0 or more/],
    [{ maxRetries: -1 }, /Invalid maxRetries -1/],
    [{ maxRetries: 1.5 }, /Invalid maxRetries 1.5/],
    [{ maxRetries: Infinity }, /Invalid maxRetries Infinity/],
  ])('refuses %o, at creation and for a call, before sending anything', async (limits, message) => {
    expect(() => testClient(limits)).toThrow(OcsError);
    expect(() => testClient(limits)).toThrow(message);
    const call = getCampaign(testClient(), { campaign_id }, limits);
    await expect(call).rejects.toThrow(OcsError);
    await expect(call).rejects.toThrow(message);
    expect(seen).toHaveLength(0);
  });

  // NaN compared false with every wait, which removed the cap; -1 refused every Retry-After.
  it.each([
    [NaN, /^Invalid maxRetryAfterMs NaN: expected ms, 0 or more\.$/],
    [-1, /^Invalid maxRetryAfterMs -1: expected ms, 0 or more\.$/],
    [-Infinity, /^Invalid maxRetryAfterMs -Infinity/],
  ])('refuses maxRetryAfterMs %s at creation, as it refuses timeoutMs and maxRetries', (maxRetryAfterMs, message) => {
    expect(() => testClient({ maxRetryAfterMs })).toThrow(OcsError);
    expect(() => testClient({ maxRetryAfterMs })).toThrow(message);
  });

  it('takes maxRetryAfterMs 0 (wait for no Retry-After) and Infinity (only the deadline caps it)', async () => {
    server.use(
      http.get(campaignUrl, () =>
        seen.length === 1
          ? HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '1' } })
          : HttpResponse.json(campaignBody),
      ),
    );
    const capped = await getCampaign(testClient({ maxRetryAfterMs: 0 }), { campaign_id }).catch((e: unknown) => e);
    expect(capped).toMatchObject({ status: 429, retryAfter: 1, attempts: 1 });
    expect(() => testClient({ maxRetryAfterMs: Infinity })).not.toThrow();
  });

  it('reads OCS_API_KEY and OCS_BASE_URL when not given', async () => {
    vi.stubEnv('OCS_API_KEY', 'ocs_from_env');
    vi.stubEnv('OCS_BASE_URL', 'http://ocs.test');
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    await getCampaign(createClient(), { campaign_id });
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer ocs_from_env');
    expect(seen[0]?.url.href).toBe(campaignUrl);
  });

  it("defaults to ocs-mock's address, http://127.0.0.1:4011/v1", async () => {
    vi.stubEnv('OCS_BASE_URL', undefined);
    server.use(http.get('http://127.0.0.1:4011/v1/campaigns/:id', () => HttpResponse.json(campaignBody)));
    await getCampaign(createClient({ apiKey }), { campaign_id });
    expect(seen[0]?.url.origin).toBe('http://127.0.0.1:4011');
  });
});

describe('requests', () => {
  it('sends Authorization: Bearer <key> with exactly one space, on both APIs', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    const client = testClient();
    await getCampaign(client, { campaign_id });
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    expect(seen.map((request) => request.headers.get('authorization'))).toEqual([
      `Bearer ${apiKey}`,
      `Bearer ${apiKey}`,
    ]);
  });

  it.each(['http://ocs.test', 'http://ocs.test/', 'http://ocs.test/v1', 'http://ocs.test/v1/', 'http://ocs.test/v1//'])(
    'takes the base URL %s with or without /v1',
    async (url) => {
      server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
      const client = createClient({ apiKey, baseUrl: url });
      await getCampaign(client, { campaign_id });
      await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
      expect(seen.map((request) => request.url.href)).toEqual([campaignUrl, campaignUrl]);
    },
  );

  it.each(['http://gw.test/ocs', 'http://gw.test/ocs/', 'http://gw.test/ocs/v1/'])(
    'keeps a path prefix before /v1 (%s), on both APIs',
    async (url) => {
      server.use(http.get('http://gw.test/ocs/v1/campaigns/:id', () => HttpResponse.json(campaignBody)));
      const client = createClient({ apiKey, baseUrl: url });
      await getCampaign(client, { campaign_id });
      await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
      expect(seen.map((request) => request.url.pathname)).toEqual([
        `/ocs/v1/campaigns/${campaign_id}`,
        `/ocs/v1/campaigns/${campaign_id}`,
      ]);
    },
  );

  it('routes flat params to the path, the query and the body', async () => {
    server.use(
      http.patch(`${baseUrl}/campaigns/:campaign_id/sequence/steps/:step_id`, () =>
        HttpResponse.json({ success: true, message: 'Step updated', campaign_id }),
      ),
      http.delete(`${baseUrl}/leads/:lead_id`, () =>
        HttpResponse.json({ success: true, message: 'Removed', lead_id: 'x', campaign_id }),
      ),
    );
    const client = testClient();
    await updateSequenceStep(client, { campaign_id, step_id: 3, updates: { delay: 2, subject: 'Hi {first_name}' } });
    await deleteLead(client, { lead_id: 'a b/c', campaign_id });
    const [patch, remove] = seen;
    expect(patch?.method).toBe('PATCH');
    expect(patch?.url.pathname).toBe(`/v1/campaigns/${campaign_id}/sequence/steps/3`);
    expect(patch?.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse((await bodies(seen))[0] ?? '')).toEqual({ updates: { delay: 2, subject: 'Hi {first_name}' } });
    expect(remove?.url.pathname).toBe('/v1/leads/a%20b%2Fc');
    expect(remove?.url.searchParams.get('campaign_id')).toBe(campaign_id);
    expect(remove?.headers.has('content-type')).toBe(false);
    expect(await remove?.body).toBe('');
  });

  it('leaves undefined and null query values out', async () => {
    server.use(
      http.get(`${baseUrl}/crm/deals`, () =>
        HttpResponse.json({ success: true, deals: [], count: 0, total: 0, limit: 50, offset: 0, has_more: false }),
      ),
    );
    await listDeals(testClient(), { stage_id: undefined, owner_id: null, limit: 10 });
    expect(seen[0]?.url.search).toBe('?limit=10');
  });

  it("sends the caller's X-Request-ID on every attempt", async () => {
    let calls = 0;
    server.use(
      http.get(campaignUrl, () =>
        calls++ ? HttpResponse.json(campaignBody) : HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 }),
      ),
    );
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await getCampaign(testClient(), { campaign_id }, { requestId: 'checkout-sync-7f3a9c' });
    expect(seen.map((request) => request.headers.get('x-request-id'))).toEqual([
      'checkout-sync-7f3a9c',
      'checkout-sync-7f3a9c',
    ]);
  });

  it('sends no X-Request-ID of its own', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    await getCampaign(testClient(), { campaign_id });
    expect(seen[0]?.headers.has('x-request-id')).toBe(false);
  });
});

describe('results', () => {
  it('carry requestId, rateLimit, status and headers, not enumerable', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody, { headers: rateHeaders })));
    const result = await getCampaign(testClient(), { campaign_id });
    expect(result.requestId).toBe('req_header_7');
    expect(result.rateLimit).toEqual({ limit: 100, remaining: 97, reset: 42, retryAfter: undefined });
    expect(result.status).toBe(200);
    expect(result.headers.get('ratelimit-remaining')).toBe('97');
    expect((result as { idempotencyKey?: string }).idempotencyKey).toBeUndefined();
    expect(result).toBeInstanceOf(OcsResult);
    expect(JSON.parse(JSON.stringify(result))).toEqual(campaignBody);
    expect({ ...result }).toEqual(campaignBody);
    expect(Object.keys(result)).toEqual(['success', 'campaign']);
    const keys: string[] = [];
    for (const key in result) keys.push(key);
    expect(keys).toEqual(['success', 'campaign']);
  });

  it("keep a body's own status, headers, requestId, rateLimit and idempotencyKey; resultMeta has the response's", async () => {
    const body = {
      success: true,
      status: 'queued',
      headers: { 'x-from': 'the body' },
      requestId: 'from-the-body',
      rateLimit: 'the body',
      idempotencyKey: 'from-the-body',
      campaign_id: campaign_id,
    };
    server.use(
      http.get(campaignUrl, () => HttpResponse.json(body, { headers: rateHeaders })),
      http.post(`${baseUrl}/campaigns`, () => HttpResponse.json(body, { status: 201, headers: rateHeaders })),
    );
    const client = testClient();
    for (const result of [
      await getCampaign(client, { campaign_id }),
      await createCampaign(client, { name: 'Q4' }, { idempotencyKey: 'key-sent-1' }),
    ]) {
      // The API's fields, untouched: they hide the getters of the same names.
      const fields = result as unknown as Record<string, unknown>;
      expect([fields.status, fields.headers, fields.requestId, fields.rateLimit, fields.idempotencyKey]).toEqual([
        'queued',
        { 'x-from': 'the body' },
        'from-the-body',
        'the body',
        'from-the-body',
      ]);
      expect(JSON.parse(JSON.stringify(result))).toEqual(body);
      expect({ ...result }).toEqual(body);
      expect(result).toBeInstanceOf(OcsResult);
    }
    const [read, created] = [
      resultMeta(await getCampaign(client, { campaign_id })),
      resultMeta(await createCampaign(client, { name: 'Q4' }, { idempotencyKey: 'key-sent-2' })),
    ];
    expect(read).toMatchObject({
      status: 200,
      requestId: 'req_header_7',
      rateLimit: { limit: 100, remaining: 97, reset: 42, retryAfter: undefined },
      idempotencyKey: undefined,
    });
    expect(read.headers).toBeInstanceOf(Headers);
    expect(read.headers.get('ratelimit-remaining')).toBe('97');
    expect(created).toMatchObject({ status: 201, requestId: 'req_header_7', idempotencyKey: 'key-sent-2' });
    // No body field shows in the metadata, and the metadata shows in no body.
    expect(Object.keys(read)).toEqual([]);
  });

  it('keep the getters for the names the body does not use, and resultMeta agrees with them', async () => {
    server.use(http.post(`${baseUrl}/campaigns`, () => HttpResponse.json(campaignBody, { headers: rateHeaders })));
    const result = await createCampaign(testClient(), { name: 'Q4' }, { idempotencyKey: 'key-sent-3' });
    const meta = resultMeta(result);
    expect([result.status, result.requestId, result.idempotencyKey, result.rateLimit]).toEqual([
      meta.status,
      meta.requestId,
      meta.idempotencyKey,
      meta.rateLimit,
    ]);
    expect(result.headers).toBe(meta.headers);
    expect(result.idempotencyKey).toBe('key-sent-3');
  });

  it("give a page the request ID of its response, whatever the body's fields", async () => {
    server.use(
      http.get(`${baseUrl}/leads`, () =>
        HttpResponse.json(
          { success: true, leads: [], total: 0, has_more: false, offset: 0, count: 0, limit: 10, requestId: 'body' },
          { headers: rateHeaders },
        ),
      ),
    );
    const pages = [];
    for await (const page of paginate(testClient(), listLeads).pages()) pages.push(page);
    expect(pages[0]).toMatchObject({ requestId: 'req_header_7', rateLimit: { remaining: 97 }, total: 0 });
  });

  it('keep the last rate-limit state on the client, errors included', async () => {
    const client = testClient();
    expect(client.rateLimit).toBeUndefined();
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody, { headers: rateHeaders })));
    await getCampaign(client, { campaign_id });
    expect(client.rateLimit?.remaining).toBe(97);
    server.use(
      http.get(campaignUrl, () =>
        HttpResponse.json(errorBody('CAMPAIGN_NOT_FOUND'), { status: 404, headers: { 'RateLimit-Remaining': '96' } }),
      ),
    );
    await expect(getCampaign(client, { campaign_id })).rejects.toBeInstanceOf(OcsNotFoundError);
    expect(client.rateLimit?.remaining).toBe(96);
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    expect(client.rateLimit?.remaining).toBe(96);
  });

  it('take the request ID of an error from the body, else from the header', async () => {
    server.use(
      http.get(campaignUrl, () =>
        HttpResponse.json(errorBody('CAMPAIGN_NOT_FOUND'), {
          status: 404,
          headers: { 'X-Request-ID': 'req_header_8' },
        }),
      ),
    );
    const failure = (client: ReturnType<typeof testClient>) =>
      getCampaign(client, { campaign_id }).then(
        () => expect.fail('expected an error'),
        (error: OcsNotFoundError) => error,
      );
    const fromBody = await failure(testClient());
    expect(fromBody.requestId).toBe('req_body_1');
    server.use(
      http.get(campaignUrl, () =>
        HttpResponse.json(
          { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'Campaign not found.' },
          { status: 404, headers: { 'X-Request-ID': 'req_header_8' } },
        ),
      ),
    );
    const fromHeader = await failure(testClient());
    expect(fromHeader.requestId).toBe('req_header_8');
    expect(fromHeader.message).toBe('Campaign not found. (CAMPAIGN_NOT_FOUND, HTTP 404, request req_header_8)');
  });

  it('pass through the validate option: schemas by operationId, others untouched', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    const check = vi.fn((body: unknown) => ({ ...(body as object), checked: true }));
    const checked = await getCampaign(testClient({ validate: { getCampaign: { parse: check } } }), { campaign_id });
    expect(check).toHaveBeenCalledWith(campaignBody);
    expect(checked).toMatchObject({ checked: true });
    expect(checked.requestId).toBeUndefined();
    const untouched = await getCampaign(testClient({ validate: { getLead: { parse: check } } }), { campaign_id });
    expect(JSON.parse(JSON.stringify(untouched))).toEqual(campaignBody);
    const parse = vi.fn(() => {
      throw new Error('campaign.name: expected string');
    });
    await expect(getCampaign(testClient({ validate: { getCampaign: { parse } } }), { campaign_id })).rejects.toThrow(
      'campaign.name: expected string',
    );
  });
});

describe('validate with the generated zod schemas (@ocs/sdk/zod)', () => {
  it('accepts an answer that matches the document, unknown fields kept', async () => {
    const body = { ...campaignBody, campaign: { ...fullCampaign, added_later: 1 } };
    server.use(http.get(campaignUrl, () => HttpResponse.json(body)));
    const result = await getCampaign(testClient({ validate: successResponseSchemas }), { campaign_id });
    expect(result.campaign).toMatchObject({ name: 'Q4 Founders Outreach', added_later: 1 });
    expect(result.requestId).toBeUndefined();
  });

  it("throws zod's error for an answer that does not", async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json({ success: true, campaign: { id: campaign_id } })));
    await expect(getCampaign(testClient({ validate: successResponseSchemas }), { campaign_id })).rejects.toThrow(
      /name/,
    );
  });
});

describe('deprecations', () => {
  const legacyUrl = `${baseUrl}/campaigns/webhook/examples`;
  const deprecatedHeaders = { Deprecation: 'true', Link: '</v1/webhooks/examples>; rel="successor-version"' };

  it('are reported once per operation through the logger, naming the successor', async () => {
    server.use(
      http.get(legacyUrl, () => HttpResponse.json({ success: true, examples: [] }, { headers: deprecatedHeaders })),
      http.post(`${baseUrl}/leads/create`, () =>
        HttpResponse.json(errorBody('VALIDATION_ERROR'), {
          status: 400,
          headers: { Deprecation: 'true', Link: '</v1/leads>; rel="successor-version"' },
        }),
      ),
    );
    const logger = { warn: vi.fn() };
    const client = createClient({ apiKey, baseUrl, logger });
    await listWebhookExamplesLegacy(client);
    await listWebhookExamplesLegacy(client);
    await client.GET('/campaigns/webhook/examples');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      '[@ocs/sdk] GET /campaigns/webhook/examples is deprecated; move to /v1/webhooks/examples.',
    );
    // Errors of a deprecated operation carry the headers too.
    await client.POST('/leads/create', { body: { email: 'maya.patel@acmerobotics.com' } });
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenLastCalledWith(
      expect.stringContaining('POST /leads/create is deprecated; move to /v1/leads.'),
    );
  });

  it('say only that the operation is deprecated when no Link names a successor', async () => {
    server.use(
      http.get(legacyUrl, () =>
        HttpResponse.json(
          { success: true, examples: [] },
          { headers: { Deprecation: 'true', Link: '</v1/x>; rel="next"' } },
        ),
      ),
    );
    const logger = { warn: vi.fn() };
    await listWebhookExamplesLegacy(testClient({ logger }));
    expect(logger.warn).toHaveBeenCalledExactlyOnceWith('[@ocs/sdk] GET /campaigns/webhook/examples is deprecated.');
  });

  it('log through console.warn by default', async () => {
    server.use(
      http.get(legacyUrl, () => HttpResponse.json({ success: true, examples: [] }, { headers: deprecatedHeaders })),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await listWebhookExamplesLegacy(testClient());
    expect(warn).toHaveBeenCalledOnce();
  });

  it('stay silent for operations that are not deprecated', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(campaignBody)));
    const logger = { warn: vi.fn() };
    await getCampaign(testClient({ logger }), { campaign_id });
    expect(logger.warn).not.toHaveBeenCalled();
  });
});

describe('createOcs', () => {
  it('binds every operation and a paginator per list operation to one client', async () => {
    server.use(
      http.get(campaignUrl, () => HttpResponse.json(campaignBody)),
      http.post(`${baseUrl}/leads`, () =>
        HttpResponse.json(
          { success: true, created: true, sequence_lead_id: null, lead: { id: 'l1' } },
          { status: 201 },
        ),
      ),
      http.get(`${baseUrl}/leads`, () =>
        HttpResponse.json({
          success: true,
          leads: [{ id: 'l1' }],
          count: 1,
          total: 1,
          limit: 20,
          offset: 0,
          page: 1,
          has_more: false,
        }),
      ),
    );
    const ocs = createOcs({ apiKey, baseUrl });
    // The specification's 50 operations and the 6 sandbox ones; 8 lists (2 of them sandbox).
    expect(Object.keys(ocs).filter((key) => key !== 'client' && key !== 'paginate')).toHaveLength(56);
    expect(Object.keys(ocs.paginate).sort()).toEqual([
      'listAccounts',
      'listCampaigns',
      'listDeals',
      'listLeads',
      'listPipelines',
      'listSandboxDeliveries',
      'listSandboxMessages',
      'listWebhooks',
    ]);
    expect((await ocs.getCampaign({ campaign_id })).campaign.name).toBe('Q4 Founders Outreach');
    expect((await ocs.createLead({ email: 'maya.patel@acmerobotics.com' })).created).toBe(true);
    expect(await ocs.paginate.listLeads().toArray({ limit: 10 })).toEqual([{ id: 'l1' }]);
    expect(ocs.client.rateLimit).toBeDefined();
    const shared = createOcs(ocs.client);
    expect(shared.client).toBe(ocs.client);
  });

  it('is the same call as the functions', async () => {
    server.use(
      http.get(`${baseUrl}/leads`, () =>
        HttpResponse.json({
          success: true,
          leads: [],
          count: 0,
          total: 0,
          limit: 5,
          offset: 0,
          page: 1,
          has_more: false,
        }),
      ),
    );
    const client = testClient();
    await listLeads(client, { limit: 5, email: 'maya.patel@acmerobotics.com' });
    await createOcs(client).listLeads({ limit: 5, email: 'maya.patel@acmerobotics.com' });
    expect(seen[0]?.url.href).toBe(seen[1]?.url.href);
    expect(createLead).toBeTypeOf('function');
  });
});
