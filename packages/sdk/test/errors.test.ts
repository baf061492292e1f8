/**
 * The error family: one class per status family, narrowed by `instanceof` and then by the
 * API's `code`, with typed `details`, the request ID, headers and rate-limit state.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  getCampaign,
  listLeads,
  OcsApiError,
  OcsAuthenticationError,
  OcsBadRequestError,
  OcsConflictError,
  OcsError,
  OcsInternalServerError,
  OcsNotFoundError,
  OcsPayloadTooLargeError,
  OcsPermissionDeniedError,
  OcsRateLimitError,
  OcsServiceUnavailableError,
  paginate,
  replaceSenders,
  type ErrorCode,
} from '../src/index.ts';
import { baseUrl, errorBody, testClient, useMsw } from './helpers/msw.ts';

const { server } = useMsw();
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const campaignUrl = `${baseUrl}/campaigns/${campaign_id}`;

const failWith = async (status: number, body: unknown, headers: Record<string, string> = {}) => {
  server.use(
    http.get(campaignUrl, () =>
      typeof body === 'string'
        ? new HttpResponse(body, { status, headers })
        : HttpResponse.json(body as Record<string, unknown>, { status, headers }),
    ),
  );
  return getCampaign(testClient({ maxRetries: 0 }), { campaign_id }).then(
    () => expect.fail('expected an error'),
    (error: unknown) => error,
  );
};

describe('classes', () => {
  it.each([
    [400, 'VALIDATION_ERROR', OcsBadRequestError],
    [401, 'UNAUTHORIZED', OcsAuthenticationError],
    [403, 'INSUFFICIENT_SCOPE', OcsPermissionDeniedError],
    [404, 'CAMPAIGN_NOT_FOUND', OcsNotFoundError],
    [409, 'SEQUENCE_MODIFIED', OcsConflictError],
    [413, 'PAYLOAD_TOO_LARGE', OcsPayloadTooLargeError],
    [429, 'RATE_LIMITED', OcsRateLimitError],
    [500, 'INTERNAL_ERROR', OcsInternalServerError],
    [503, 'AUTH_UNAVAILABLE', OcsServiceUnavailableError],
  ] as const)('%i %s is %o', async (status, code, Class) => {
    const error = await failWith(status, errorBody(code, 'What happened. What to do.'), { 'X-Request-ID': 'req_h' });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(OcsApiError);
    expect(error).toBeInstanceOf(OcsError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ status, code, requestId: 'req_body_1', name: Class.name });
    expect((error as Error).message).toBe(`What happened. What to do. (${code}, HTTP ${status}, request req_body_1)`);
  });

  it('uses OcsApiError itself for other statuses', async () => {
    const error = await failWith(502, '<html>Bad gateway</html>', { 'X-Request-ID': 'req_gw' });
    expect(error).toBeInstanceOf(OcsApiError);
    expect((error as OcsApiError).constructor).toBe(OcsApiError);
    expect(error).toMatchObject({
      status: 502,
      code: 'INTERNAL_ERROR',
      requestId: 'req_gw',
      body: '<html>Bad gateway</html>',
    });
    expect((error as Error).message).toBe(
      "Not the API's error body (not valid JSON): a server failed. (INTERNAL_ERROR, HTTP 502, request req_gw)",
    );
  });

  // Below 500 another server answered in the API's place (a wrong baseUrl); from 500 a server
  // on the way failed (a gateway's HTML 502), which no baseUrl fixes.
  it.each([
    [404, 'check baseUrl'],
    [405, 'check baseUrl'],
    [422, 'check baseUrl'],
    [500, 'a server failed'],
    [502, 'a server failed'],
    [504, 'a server failed'],
  ])("words the advice for a body that is not the API's by status class (%i: %s)", async (status, advice) => {
    const error = await failWith(status, '<html>Something in between</html>');
    expect((error as Error).message).toBe(
      `Not the API's error body (not valid JSON): ${advice}. (${(error as OcsApiError).code}, HTTP ${status})`,
    );
  });

  it('ends a retried HTML 502 from a gateway without the advice to check baseUrl', async () => {
    server.use(http.get(campaignUrl, () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })));
    const error = await getCampaign(testClient({ maxRetries: 1 }), { campaign_id }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, attempts: 2 });
    expect((error as Error).message).not.toMatch(/baseUrl/);
  });

  it.each([undefined, '', { text: 'an object' }, 42])(
    'says so when the API error body has no message as text (%j)',
    async (message) => {
      const error = await failWith(404, { success: false, error: 'CAMPAIGN_NOT_FOUND', message, request_id: 'req_m' });
      expect(error).toBeInstanceOf(OcsNotFoundError);
      expect((error as Error).message).toBe('No message from the API. (CAMPAIGN_NOT_FOUND, HTTP 404, request req_m)');
    },
  );

  it.each([[42], [{ id: 'req_object' }], [['req_array']], [true]])(
    "takes X-Request-ID when the API error body's request_id is not a string (%j)",
    async (request_id) => {
      expect(typeof request_id).not.toBe('string');
      const body = { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'No such campaign.', request_id };
      const error = await failWith(404, body, { 'X-Request-ID': 'req_header' });
      expect(error).toBeInstanceOf(OcsNotFoundError);
      expect(error).toMatchObject({ code: 'CAMPAIGN_NOT_FOUND', requestId: 'req_header', body });
      expect((error as Error).message).toBe('No such campaign. (CAMPAIGN_NOT_FOUND, HTTP 404, request req_header)');
      // No header either: no request ID at all, never the body's value.
      const bare = await failWith(404, body);
      expect((bare as OcsApiError).requestId).toBeUndefined();
      expect((bare as Error).message).toBe('No such campaign. (CAMPAIGN_NOT_FOUND, HTTP 404)');
    },
  );

  it.each([
    [401, 'UNAUTHORIZED'],
    [404, 'NOT_FOUND'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [422, 'VALIDATION_ERROR'],
    [429, 'RATE_LIMITED'],
    [503, 'UPSTREAM_TIMEOUT'],
  ])("gives a body that is not the API's (status %i) the code %s", async (status, code) => {
    const error = await failWith(status, { type: 'about:blank', title: 'Something in between' });
    expect((error as OcsApiError).code).toBe(code);
  });

  it('reads no fields of a JSON body whose error is not a code (a proxy’s shape)', async () => {
    const body = {
      error: { code: 'upstream', status: 502 },
      message: { text: 'upstream failed' },
      request_id: 42,
      details: 'x',
    };
    const error = await failWith(502, body, { 'X-Request-ID': 'req_proxy' });
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', requestId: 'req_proxy', details: undefined, body });
    expect((error as Error).message).toBe(
      "Not the API's error body: a server failed. (INTERNAL_ERROR, HTTP 502, request req_proxy)",
    );
  });
});

describe("2xx answers that are not the API's", () => {
  it.each([
    ['an HTML page', '<html>captive portal</html>', '<html>captive portal</html>', ' (not valid JSON)'],
    ['JSON null', null, null, ''],
    ['a JSON string', '"ok"', 'ok', ''],
    ['a JSON number', '42', 42, ''],
    ['a JSON array', '[{"id":"a"}]', [{ id: 'a' }], ''],
  ])('%s is an OcsApiError with the status and request ID', async (_name, sent, body, notJson) => {
    const error = await failWith(200, sent, { 'X-Request-ID': 'req_portal' });
    expect(error).toBeInstanceOf(OcsApiError);
    expect(error).toMatchObject({ status: 200, code: 'INTERNAL_ERROR', requestId: 'req_portal', body });
    expect((error as Error).message).toBe(
      `Not the API's answer${notJson}: check baseUrl. (INTERNAL_ERROR, HTTP 200, request req_portal)`,
    );
  });

  it('a list page without its items is an OcsApiError when paging', async () => {
    server.use(
      http.get(`${baseUrl}/leads`, () =>
        HttpResponse.json({ success: true, total: 1, has_more: false }, { headers: { 'X-Request-ID': 'req_page' } }),
      ),
    );
    const error = await paginate(testClient(), listLeads)
      .toArray({ limit: 10 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsApiError);
    expect(error).toMatchObject({ status: 200, code: 'INTERNAL_ERROR', requestId: 'req_page' });
  });
});

describe('narrowing', () => {
  it('by class, then by code, with typed details', async () => {
    server.use(
      http.put(`${campaignUrl}/senders`, () =>
        HttpResponse.json(
          errorBody('ACCOUNT_IN_USE', 'acc_li_9Tn4bW6y already sends for EMEA Expansion.', {
            details: {
              conflicts: [
                {
                  account_id: 'acc_li_9Tn4bW6y',
                  campaign_id: '7d2f4b81-6c3a-4e9d-b5f2-8a1c3e6d9b27',
                  campaign_name: 'EMEA Expansion',
                },
              ],
            },
          }),
          { status: 409 },
        ),
      ),
    );
    let handled = '';
    try {
      await replaceSenders(testClient(), { campaign_id, account_ids: ['acc_li_9Tn4bW6y'] });
    } catch (error) {
      if (error instanceof OcsConflictError) {
        switch (error.code) {
          case 'ACCOUNT_IN_USE':
            handled = error.details?.conflicts?.map((conflict) => conflict.campaign_id).join() ?? '';
            break;
          case 'ACCOUNT_NOT_CONNECTED':
            handled = error.details?.account_ids?.join() ?? '';
            break;
          default:
            handled = error.code;
        }
      }
    }
    expect(handled).toBe('7d2f4b81-6c3a-4e9d-b5f2-8a1c3e6d9b27');
  });

  it('by code on the base class, with details.errors[]', async () => {
    const error = await failWith(
      400,
      errorBody('VALIDATION_ERROR', 'Request validation failed.', {
        details: { errors: [{ field: 'query.limit', message: 'must be <= 500', type: 'less_than_equal' }] },
      }),
    );
    const code: ErrorCode | undefined = error instanceof OcsApiError ? error.code : undefined;
    expect(code).toBe('VALIDATION_ERROR');
    if (error instanceof OcsApiError && error.code === 'VALIDATION_ERROR') {
      expect(error.details?.errors?.[0]?.field).toBe('query.limit');
    } else expect.fail('not narrowed');
  });

  it('keeps the headers and the rate-limit state', async () => {
    const error = await failWith(429, errorBody('RATE_LIMITED'), {
      'Retry-After': '3600',
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3600',
    });
    expect(error).toBeInstanceOf(OcsRateLimitError);
    const limited = error as OcsRateLimitError;
    expect(limited.headers.get('ratelimit-limit')).toBe('100');
    expect(limited.rateLimit).toEqual({ limit: 100, remaining: 0, reset: 3600, retryAfter: 3600 });
    expect(limited.retryAfter).toBe(3600);
    expect(limited.idempotencyKey).toBeUndefined();
  });
});
