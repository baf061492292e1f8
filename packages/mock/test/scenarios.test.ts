/**
 * Scenarios: failures by operation with the document's statuses and codes, latency, a low
 * rate-limit budget counted by the server's own limiter, the service unavailable. Answers
 * are checked as raw HTTP (body, headers) and through the SDK.
 */
import { createCampaign, getCampaign, listCampaigns, listLeads, OcsServiceUnavailableError } from '@ocs/sdk';
import { describe, expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';
import { mockedApi } from './support/setup.ts';

const { mock, client } = await mockedApi({ seed: 5 });
const campaign_id = mock.data.campaigns[0]?.id ?? '';
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${mock.baseUrl}${path}`, { headers: { Authorization: `Bearer ${mock.apiKey}`, ...headers } });

describe('fail', () => {
  it('fails the next N calls of one operation in the API error body, then answers normally', async () => {
    mock.scenarios.fail('getCampaign', { status: 404, code: 'CAMPAIGN_NOT_FOUND', times: 2 });
    for (let i = 0; i < 2; i++) {
      const response = await get(`/campaigns/${campaign_id}`, { 'X-Request-ID': `trace-${i}` });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        success: false,
        error: 'CAMPAIGN_NOT_FOUND',
        message: 'CAMPAIGN_NOT_FOUND (an @ocs/mock scenario for getCampaign).',
        request_id: `trace-${i}`,
      });
      expect(response.headers.get('X-Request-ID')).toBe(`trace-${i}`);
      expect(response.headers.get('RateLimit-Limit')).toBe('100');
      expect(response.headers.get('Retry-After')).toBeNull();
    }
    expect((await get(`/campaigns/${campaign_id}`)).status).toBe(200);
    // Other operations were never affected.
    expect((await get('/campaigns')).status).toBe(200);
  });

  it('answers before the application: a failed create writes nothing', async () => {
    mock.scenarios.fail('createCampaign', {
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { errors: [{ field: 'body.name', message: 'is taken', type: 'duplicate' }] },
      message: 'Request validation failed: body.name is taken.',
    });
    const error = await createCampaign(client({ maxRetries: 0 }), { name: 'Dup' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { errors: [{ type: 'duplicate' }] },
    });
    expect((await listCampaigns(client())).total).toBe(3);
  });

  it('429 and 503 carry Retry-After; the client retries them', async () => {
    mock.scenarios.fail('listCampaigns', { status: 429, code: 'RATE_LIMITED', retryAfter: 7 });
    const limited = await get('/campaigns');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('7');
    expect(limited.headers.get('RateLimit-Remaining')).toBe('0');
    expect(limited.headers.get('RateLimit-Reset')).toBe('7');
    expect(await limited.json()).toMatchObject({ message: 'Rate limit exceeded. Retry after 7 seconds.' });

    mock.scenarios.fail('listLeads', { status: 503, code: 'UPSTREAM_TIMEOUT', times: 2, retryAfter: 0 });
    expect((await listLeads(client())).total).toBe(30);
  });

  it('queues scenarios of one operation in order', async () => {
    mock.scenarios.fail('getCampaign', { status: 500, code: 'INTERNAL_ERROR' });
    mock.scenarios.fail('getCampaign', { status: 404, code: 'NOT_FOUND' });
    expect((await get(`/campaigns/${campaign_id}`)).status).toBe(500);
    expect((await get(`/campaigns/${campaign_id}`)).status).toBe(404);
    expect((await get(`/campaigns/${campaign_id}`)).status).toBe(200);
  });

  it('refuses, at run time too, a status the operation does not document, a code of another status, or an unknown operation', () => {
    // @ts-expect-error createCampaign documents no 404
    expect(() => mock.scenarios.fail('createCampaign', { status: 404, code: 'NOT_FOUND' })).toThrow(
      /does not document the error status 404/,
    );
    // @ts-expect-error RATE_LIMITED is a 429 code of getCampaign, not a 404 one
    expect(() => mock.scenarios.fail('getCampaign', { status: 404, code: 'RATE_LIMITED' })).toThrow(
      /does not answer 404 with RATE_LIMITED; at 404 it documents NOT_FOUND, CAMPAIGN_NOT_FOUND/,
    );
    // @ts-expect-error not an operationId
    expect(() => mock.scenarios.fail('launchRocket', { status: 500, code: 'INTERNAL_ERROR' })).toThrow(
      /unknown operationId "launchRocket"/,
    );
  });
});

describe('latency', () => {
  it('slows one operation: a later call to another one answers first', async () => {
    mock.scenarios.latency(150, { operations: ['listLeads'] });
    const order: string[] = [];
    await Promise.all([
      listLeads(client()).then(() => order.push('listLeads')),
      getCampaign(client(), { campaign_id }).then(() => order.push('getCampaign')),
    ]);
    expect(order).toEqual(['getCampaign', 'listLeads']);
  });

  it('slows every operation', async () => {
    mock.scenarios.latency(100);
    const call = getCampaign(client(), { campaign_id }).then(() => 'answer');
    const timer = new Promise((resolve) => setTimeout(() => resolve('timer'), 20));
    expect(await Promise.race([call, timer])).toBe('timer');
    expect(await call).toBe('answer');
  });
});

describe('rateLimit', () => {
  it('a low budget counts down in RateLimit-Remaining, then the server answers 429 with Retry-After', async () => {
    mock.scenarios.rateLimit({ perEndpoint: 2 });
    const first = await get('/campaigns');
    const second = await get('/campaigns');
    const third = await get('/campaigns');
    expect([first, second, third].map((r) => r.status)).toEqual([200, 200, 429]);
    expect([first, second].map((r) => r.headers.get('RateLimit-Remaining'))).toEqual(['1', '0']);
    expect(Number(third.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(await third.json()).toMatchObject({
      error: 'RATE_LIMITED',
      message: expect.stringMatching(/Rate limit of 2 requests per minute for GET \/v1\/campaigns exceeded/),
    });
    // Per endpoint: another operation still has its own budget.
    expect((await get('/leads')).status).toBe(200);
  });

  it('a total budget across operations', async () => {
    mock.scenarios.rateLimit({ total: 2 });
    expect((await get('/campaigns')).status).toBe(200);
    expect((await get('/leads')).status).toBe(200);
    expect((await get('/accounts')).status).toBe(429);
  });
});

describe('unavailable', () => {
  it('answers 503 for every operation until cleared, or for N calls', async () => {
    mock.scenarios.unavailable();
    for (const path of ['/campaigns', '/leads', '/auth/verify']) {
      const response = await get(path);
      expect(response.status).toBe(503);
      expect(response.headers.get('Retry-After')).toBe('1');
      expect(await response.json()).toMatchObject({ error: 'UPSTREAM_TIMEOUT' });
    }
    const error = await listCampaigns(client({ maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsServiceUnavailableError);
    mock.scenarios.clear();
    expect((await get('/campaigns')).status).toBe(200);

    mock.scenarios.unavailable({ times: 1, code: 'AUTH_UNAVAILABLE', retryAfter: 0 });
    // The SDK retries a 503 AUTH_UNAVAILABLE.
    expect((await listCampaigns(client())).total).toBe(3);
  });
});

describe('options a scenario cannot honour (JavaScript callers)', () => {
  /** Each call, as a JavaScript caller may make it, and what its error must name. */
  const refused: Array<[string, () => void, ErrorConstructor, RegExp]> = [
    [
      'rateLimit windowMs 0',
      () => mock.scenarios.rateLimit({ windowMs: 0 }),
      RangeError,
      /rateLimit\.windowMs must be a whole number >= 1, got 0/,
    ],
    [
      'rateLimit perEndpoint "x"',
      () => mock.scenarios.rateLimit({ perEndpoint: 'x' as never }),
      TypeError,
      /rateLimit\.perEndpoint must be a number, got "x"/,
    ],
    [
      'rateLimit perEndpoint -1',
      () => mock.scenarios.rateLimit({ perEndpoint: -1 }),
      RangeError,
      /rateLimit\.perEndpoint must be a whole number >= 0/,
    ],
    [
      'rateLimit misspelt',
      () => mock.scenarios.rateLimit({ perEndpont: 3 } as never),
      TypeError,
      /rateLimit has no option "perEndpont"; it takes perEndpoint, total, windowMs/,
    ],
    [
      'unavailable code NOPE',
      () => mock.scenarios.unavailable({ code: 'NOPE' as never }),
      TypeError,
      /unavailable\.code must be UPSTREAM_TIMEOUT or AUTH_UNAVAILABLE, got "NOPE"/,
    ],
    [
      'unavailable times 0',
      () => mock.scenarios.unavailable({ times: 0 }),
      RangeError,
      /unavailable\.times must be 1 or more/,
    ],
    [
      'unavailable times "x"',
      () => mock.scenarios.unavailable({ times: 'x' as never }),
      TypeError,
      /unavailable\.times must be a number/,
    ],
    [
      'unavailable retryAfter -1',
      () => mock.scenarios.unavailable({ retryAfter: -1 }),
      RangeError,
      /unavailable\.retryAfter must be a whole number of seconds >= 0/,
    ],
    [
      'fail times 0',
      () => mock.scenarios.fail('listCampaigns', { status: 429, code: 'RATE_LIMITED', times: 0 }),
      RangeError,
      /fail\.times must be 1 or more/,
    ],
    [
      'fail times "x"',
      () => mock.scenarios.fail('listCampaigns', { status: 429, code: 'RATE_LIMITED', times: 'x' as never }),
      TypeError,
      /fail\.times must be a number/,
    ],
    [
      'fail status "429"',
      () => mock.scenarios.fail('listCampaigns', { status: '429', code: 'RATE_LIMITED' } as never),
      TypeError,
      /fail\.status must be an HTTP status/,
    ],
    [
      'latency Infinity',
      () => mock.scenarios.latency(Infinity),
      RangeError,
      /latency\.ms must be a number of milliseconds from 0 to 2147483647, got Infinity/,
    ],
    ['latency NaN', () => mock.scenarios.latency(Number.NaN), RangeError, /latency\.ms/],
    [
      'latency operations "x"',
      () => mock.scenarios.latency(5, { operations: 'listLeads' as never }),
      TypeError,
      /latency\.operations must be an array of operationIds/,
    ],
    [
      'hang operations "x"',
      () => mock.scenarios.hang({ operations: 'getCampaign' as never }),
      TypeError,
      /hang\.operations must be an array/,
    ],
    [
      'networkError misspelt',
      () => mock.scenarios.networkError({ operation: ['listLeads'] } as never),
      TypeError,
      /networkError has no option "operation"/,
    ],
  ];
  it.each(refused)('%s is refused at the call, naming the option', (_, call, type, message) => {
    expect(call).toThrow(type);
    expect(call).toThrow(message);
    // Nothing was set: the mock answers as usual.
    expect(mock.requests.all()).toEqual([]);
  });

  it('leaves the mock answering as before', async () => {
    for (const [, call] of refused) expect(call).toThrow();
    expect((await listCampaigns(client({ maxRetries: 0 }))).total).toBe(3);
    expect((await listCampaigns(client({ maxRetries: 0 }))).rateLimit).toMatchObject({ limit: 100 });
  });

  it('createOcsMock refuses rate limits and a seed it cannot use, naming the option', async () => {
    await expect(createOcsMock({ rateLimits: { windowMs: 0 } })).rejects.toThrow(
      /rateLimits\.windowMs must be a whole number >= 1, got 0/,
    );
    await expect(createOcsMock({ rateLimits: { perEndpoint: 1.5 } })).rejects.toThrow(RangeError);
    await expect(createOcsMock({ rateLimits: { total: 'x' as never } })).rejects.toThrow(TypeError);
    await expect(createOcsMock({ seed: 'abc' as never })).rejects.toThrow(/seed must be an integer, got "abc"/);
  });
});
