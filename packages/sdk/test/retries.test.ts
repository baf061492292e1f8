/**
 * Which answers are retried, for which requests, and how long the client waits: against
 * MSW handlers that answer what the service answers under load or failure.
 */
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAccountConnectLink,
  createCampaign,
  deleteLead,
  getCampaign,
  OcsConflictError,
  OcsConnectionError,
  OcsError,
  OcsInternalServerError,
  OcsRateLimitError,
  OcsServiceUnavailableError,
  parseRateLimit,
  replaceSenders,
  updateCampaign,
} from '../src/index.ts';
import { retryWait } from '../src/retry.ts';
import { baseUrl, bodies, errorBody, testClient, useMsw } from './helpers/msw.ts';

const { server, seen } = useMsw();
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const campaignUrl = `${baseUrl}/campaigns/${campaign_id}`;
const okCampaign = () => HttpResponse.json({ success: true, campaign: { id: campaign_id, name: 'Q4' } });

/** Answers the given responses in turn, then the last one again. */
const sequence = (...responses: (() => Response)[]) => {
  let call = 0;
  return () => (responses[Math.min(call++, responses.length - 1)] ?? okCampaign)();
};

// Backoff with full jitter is random in [0, cap): pin it to 0 so that tests do not wait.
beforeEach(() => void vi.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => void vi.restoreAllMocks());

// Retry-After is delay-seconds or an HTTP-date (RFC 9110 section 10.2.3). V8's Date.parse reads
// much else as a date: `-1` as 2001-01-01 and `5.5.5` as 2005-05-05, past dates that made the
// retry come at once instead of after the backoff.
describe('Retry-After', () => {
  const retryAfter = (value: string) => parseRateLimit(new Headers({ 'Retry-After': value })).retryAfter;

  it('reads whole seconds and the three forms of an HTTP-date', () => {
    vi.useFakeTimers({ now: Date.parse('Sun, 06 Nov 1994 08:49:00 GMT'), toFake: ['Date'] });
    try {
      expect(retryAfter('0')).toBe(0);
      expect(retryAfter('120')).toBe(120);
      expect(retryAfter('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(37); // IMF-fixdate
      expect(retryAfter('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(37); // rfc850
      // asctime has no zone: V8 reads it as local time, so only its being a date is certain here.
      expect(retryAfter('Sun Nov  6 08:49:37 1994')).toBeTypeOf('number');
      expect(retryAfter('Sun, 06 Nov 1994 08:48:00 GMT')).toBe(0); // past: retry now
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ...['-1', '5.5.5', '-0.5', 'in 5', 'May 5', 'soon', '1s', 'Sun, 99 Foo 1994 99:99:99 GMT', ''],
    // Not delay-seconds (digits only), though Number() reads them: 16, 10, 1.5 and 5.
    ...['0x10', '1e1', '1.5', '+5', '0b101', 'Infinity', '9'.repeat(400), '12345678901'],
  ])('counts %j as no value', (value) => expect(retryAfter(value)).toBeUndefined());

  it('leaves the backoff to apply when Retry-After is not a value', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    for (const value of ['-1', '5.5.5']) {
      const response = new Response('{}', { status: 503, headers: { 'Retry-After': value } });
      expect(await retryWait(response, 1, 60_000)).toBe(500); // 0.5 × min(0.5 s × 2, 8 s)
    }
  });

  it('retries a 503 with Retry-After -1 after the backoff, not at once', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const unavailable = () =>
      HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503, headers: { 'Retry-After': '-1' } });
    server.use(http.get(campaignUrl, sequence(unavailable, okCampaign)));
    const started = Date.now();
    await getCampaign(testClient(), { campaign_id });
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240); // 0.5 × 500 ms, less the timer's slack
  });
});

describe('429', () => {
  it('waits Retry-After, then retries a GET', async () => {
    server.use(
      http.get(
        campaignUrl,
        sequence(
          () => HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '1' } }),
          okCampaign,
        ),
      ),
    );
    const started = Date.now();
    const result = await getCampaign(testClient(), { campaign_id });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.campaign.id).toBe(campaign_id);
    expect(seen).toHaveLength(2);
  });

  it('fails at once when Retry-After is above maxRetryAfterMs, with retryAfter on the error', async () => {
    server.use(
      http.get(campaignUrl, () =>
        HttpResponse.json(errorBody('RATE_LIMITED', 'Retry after 120 seconds.'), {
          status: 429,
          headers: {
            'Retry-After': '120',
            'RateLimit-Limit': '100',
            'RateLimit-Remaining': '0',
            'RateLimit-Reset': '120',
          },
        }),
      ),
    );
    const started = Date.now();
    const error = await getCampaign(testClient({ maxRetryAfterMs: 60_000 }), { campaign_id }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(OcsRateLimitError);
    const rateLimited = error as OcsRateLimitError;
    expect(rateLimited.code).toBe('RATE_LIMITED');
    expect(rateLimited.retryAfter).toBe(120);
    expect(rateLimited.rateLimit).toEqual({ limit: 100, remaining: 0, reset: 120, retryAfter: 120 });
    expect(seen).toHaveLength(1);
  });

  it('falls back to RateLimit-Reset when there is no Retry-After', async () => {
    server.use(
      http.get(
        campaignUrl,
        sequence(
          () => HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'RateLimit-Reset': '1' } }),
          okCampaign,
        ),
      ),
    );
    const started = Date.now();
    await getCampaign(testClient(), { campaign_id });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(seen).toHaveLength(2);
  });

  it('backs off without either header, and gives up after maxRetries', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429 })));
    await expect(getCampaign(testClient({ maxRetries: 3 }), { campaign_id })).rejects.toBeInstanceOf(OcsRateLimitError);
    expect(seen).toHaveLength(4);
  });

  it('takes maxRetries per call over the client default', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429 })));
    await expect(getCampaign(testClient(), { campaign_id }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      OcsRateLimitError,
    );
    expect(seen).toHaveLength(1);
  });
});

describe('503 and 500', () => {
  it.each(['UPSTREAM_TIMEOUT', 'AUTH_UNAVAILABLE'])('retries 503 %s', async (code) => {
    server.use(
      http.get(
        campaignUrl,
        sequence(() => HttpResponse.json(errorBody(code), { status: 503 }), okCampaign),
      ),
    );
    const result = await getCampaign(testClient(), { campaign_id });
    expect(result.status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it('gives up after maxRetries (default 2) with the 503 error', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 })));
    const error = await getCampaign(testClient(), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsServiceUnavailableError);
    expect((error as OcsServiceUnavailableError).code).toBe('UPSTREAM_TIMEOUT');
    expect(seen).toHaveLength(3);
  });

  it("retries a 503 whatever its body (a proxy's page too), and gives up with it", async () => {
    server.use(http.get(campaignUrl, () => new HttpResponse('<html>maintenance</html>', { status: 503 })));
    const error = await getCampaign(testClient(), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsServiceUnavailableError);
    expect((error as OcsServiceUnavailableError).body).toBe('<html>maintenance</html>');
    expect((error as OcsServiceUnavailableError).attempts).toBe(3);
    expect(seen).toHaveLength(3);
  });

  it('retries 500 INTERNAL_ERROR', async () => {
    server.use(
      http.get(
        campaignUrl,
        sequence(() => HttpResponse.json(errorBody('INTERNAL_ERROR'), { status: 500 }), okCampaign),
      ),
    );
    expect((await getCampaign(testClient(), { campaign_id })).status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it('never retries a 500 whose code the document lists as permanent (ORG_HAS_NO_MEMBERS)', async () => {
    server.use(
      http.post(`${baseUrl}/campaigns`, () => HttpResponse.json(errorBody('ORG_HAS_NO_MEMBERS'), { status: 500 })),
    );
    const error = await createCampaign(testClient(), { name: 'Q4' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsInternalServerError);
    expect((error as OcsInternalServerError).code).toBe('ORG_HAS_NO_MEMBERS');
    expect(seen).toHaveLength(1);
  });
});

describe('writes', () => {
  const unavailable = () => HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 });
  const limited = () => HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '0' } });

  it.each([
    ['PUT', () => replaceSenders(testClient(), { campaign_id, account_ids: ['acc_li_3fK9xQ2m'] })],
    ['DELETE', () => deleteLead(testClient(), { lead_id: '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40' })],
  ])('retries %s, which leaves the same state when sent twice', async (_name, call) => {
    server.use(http.all(`${baseUrl}/*`, unavailable));
    await expect(call()).rejects.toBeInstanceOf(OcsServiceUnavailableError);
    expect(seen).toHaveLength(3);
  });

  it.each([
    ['PATCH', () => updateCampaign(testClient(), { campaign_id, is_active: true })],
    ['POST without Idempotency-Key', () => createAccountConnectLink(testClient(), { platform: 'email' })],
  ])('never retries %s, whatever the answer', async (_name, call) => {
    server.use(http.all(`${baseUrl}/*`, unavailable));
    await expect(call()).rejects.toBeInstanceOf(OcsServiceUnavailableError);
    expect(seen).toHaveLength(1);
    server.use(http.all(`${baseUrl}/*`, limited));
    await expect(call()).rejects.toBeInstanceOf(OcsRateLimitError);
    expect(seen).toHaveLength(2);
    server.use(http.all(`${baseUrl}/*`, () => HttpResponse.error()));
    await expect(call()).rejects.toBeInstanceOf(OcsConnectionError);
    expect(seen).toHaveLength(3);
  });

  it('never retries the path API POST without an Idempotency-Key', async () => {
    server.use(http.post(`${baseUrl}/leads`, unavailable));
    const { error, response } = await testClient().POST('/leads', { body: { email: 'maya.patel@acmerobotics.com' } });
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ error: 'UPSTREAM_TIMEOUT' });
    expect(seen).toHaveLength(1);
  });
});

describe('Idempotency-Key', () => {
  const campaignsUrl = `${baseUrl}/campaigns`;
  const created = () =>
    HttpResponse.json(
      {
        success: true,
        message: 'Campaign created in draft state',
        campaign_id: '0e5a9c3f-7b1d-4f6a-9e2c-8d4b1a7f3e60',
        campaign: null,
      },
      { status: 201 },
    );
  const inProgress = () =>
    HttpResponse.json(errorBody('IDEMPOTENCY_IN_PROGRESS'), { status: 409, headers: { 'Retry-After': '0' } });

  it('generates one, retries IDEMPOTENCY_IN_PROGRESS with the same key, and returns it', async () => {
    server.use(http.post(campaignsUrl, sequence(inProgress, inProgress, created)));
    const result = await createCampaign(testClient(), { name: 'Fintech CFOs' });
    expect(seen).toHaveLength(3);
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(result.idempotencyKey).toBe(keys[0]);
    expect(result.campaign_id).toBe('0e5a9c3f-7b1d-4f6a-9e2c-8d4b1a7f3e60');
    expect(await bodies(seen)).toEqual(Array(3).fill(JSON.stringify({ name: 'Fintech CFOs' })));
  });

  it('retries a 429 and a network error of a POST that carries a key', async () => {
    server.use(
      http.post(
        campaignsUrl,
        sequence(
          () => HttpResponse.error(),
          () => HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '0' } }),
          created,
        ),
      ),
    );
    const result = await createCampaign(testClient(), { name: 'Fintech CFOs' }, { idempotencyKey: 'sync-42' });
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual(['sync-42', 'sync-42', 'sync-42']);
    expect(result.idempotencyKey).toBe('sync-42');
  });

  it('puts the key on the error too', async () => {
    server.use(
      http.post(campaignsUrl, () =>
        HttpResponse.json(errorBody('IDEMPOTENCY_KEY_REUSED', 'This key was used with another request.'), {
          status: 409,
        }),
      ),
    );
    const error = await createCampaign(testClient(), { name: 'Fintech CFOs' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConflictError);
    const conflict = error as OcsConflictError;
    expect(conflict.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(conflict.idempotencyKey).toBe(seen[0]?.headers.get('idempotency-key'));
    expect(seen).toHaveLength(1);
  });

  it('gives up on IDEMPOTENCY_IN_PROGRESS after maxRetries, with the key on the error', async () => {
    server.use(http.post(campaignsUrl, inProgress));
    const error = await createCampaign(testClient(), { name: 'X' }, { idempotencyKey: 'k-1' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS', idempotencyKey: 'k-1', status: 409 });
    expect(seen).toHaveLength(3);
  });

  it.each(['', '  '])('refuses a blank idempotencyKey (%j) before sending anything', async (key) => {
    server.use(http.post(campaignsUrl, created));
    const error = await createCampaign(testClient(), { name: 'X' }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsError);
    expect((error as Error).message).toBe('Invalid header: idempotency-key');
    expect(seen).toHaveLength(0);
  });

  it('path API: a POST whose Idempotency-Key header is empty is not retried (no key is sent)', async () => {
    server.use(http.post(campaignsUrl, () => HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 })));
    const { response } = await testClient().POST('/campaigns', {
      params: { header: { 'Idempotency-Key': '' } },
      body: { name: 'Fintech CFOs', description: null },
    });
    expect(response.status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('path API: a POST given an Idempotency-Key header is retried', async () => {
    server.use(http.post(campaignsUrl, sequence(inProgress, created)));
    const { data, response } = await testClient().POST('/campaigns', {
      params: { header: { 'Idempotency-Key': 'path-key-1' } },
      // The path API's body type requires `description` (it has a default): see the README.
      body: { name: 'Fintech CFOs', description: null },
    });
    expect(response.status).toBe(201);
    expect(data?.campaign_id).toBe('0e5a9c3f-7b1d-4f6a-9e2c-8d4b1a7f3e60');
    expect(seen.map((request) => request.headers.get('idempotency-key'))).toEqual(['path-key-1', 'path-key-1']);
    expect(await bodies(seen)).toEqual(Array(2).fill(JSON.stringify({ name: 'Fintech CFOs', description: null })));
  });
});

describe('path API', () => {
  it("retries a GET and keeps openapi-fetch's { data, error, response }", async () => {
    server.use(
      http.get(
        campaignUrl,
        sequence(() => HttpResponse.json(errorBody('AUTH_UNAVAILABLE'), { status: 503 }), okCampaign),
      ),
    );
    const { data, error, response } = await testClient().GET('/campaigns/{campaign_id}', {
      params: { path: { campaign_id } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.campaign.id).toBe(campaign_id);
    expect(seen).toHaveLength(2);
  });

  it('returns the last error answer as { error } after the retries', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 })));
    const { data, error } = await testClient({ maxRetries: 1 }).GET('/campaigns/{campaign_id}', {
      params: { path: { campaign_id } },
    });
    expect(data).toBeUndefined();
    expect(error?.error).toBe('UPSTREAM_TIMEOUT');
    expect(seen).toHaveLength(2);
  });
});
