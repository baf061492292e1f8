/**
 * The path API's runtime (src/paths.ts) keeps openapi-fetch's behaviour: serializing
 * params, headers and bodies, `parseAs`, empty answers, and the middleware protocol
 * (`onRequest` answering instead of the service, `onError`, per-request middlewares).
 */
import { describe, expect, it } from 'vitest';
import { createCampaign, getCampaign, OcsApiError, OcsError, setWebhookSecret, type OcsClient } from '../src/index.ts';
import { serializeQuery } from '../src/paths.ts';
import { clientOf, json, startServer } from './helpers/http.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';

// A path parameter that is missing, empty, `.` or `..` puts the request on another route once
// the URL is normalised (`/campaigns/..` is `/`, `/campaigns/3c9e.../webhooks/../secret` is
// `/campaigns/3c9e.../secret`): both APIs refuse it, naming it, before anything is sent.
describe('path parameters that would change the route', () => {
  const webhook = { campaign_id, secret: 'whsec_0123456789abcdef' };

  it.each([
    ['empty', ''],
    ['.', '.'],
    ['..', '..'],
  ])('are refused on the named operations, the path API and hooked calls (%s)', async (_name, value) => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, campaign: {} }));
    const client = clientOf(server);
    const refused = async (call: Promise<unknown>, name: string) => {
      const error = await call.then(
        () => expect.fail('expected an OcsError'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OcsError);
      expect((error as Error).message).toBe(`Invalid ${name}: "${value}"`);
    };
    await refused(getCampaign(client, { campaign_id: value }), 'campaign_id');
    await refused(setWebhookSecret(client, { ...webhook, webhook_id: value }), 'webhook_id');
    await refused(client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id: value } } }), 'campaign_id');
    client.use({ onRequest: () => undefined });
    await refused(getCampaign(client, { campaign_id: value }), 'campaign_id');
    expect(server.received).toHaveLength(0);
  });

  it('are refused when missing, instead of sending the template', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, campaign: {} }));
    const client = clientOf(server);
    await expect(getCampaign(client, {} as never)).rejects.toThrow('Invalid campaign_id: ""');
    await expect(getCampaign(client, { campaign_id: undefined } as never)).rejects.toThrow('Invalid campaign_id: ""');
    await expect(client.GET('/campaigns/{campaign_id}', { params: { path: {} } } as never)).rejects.toThrow(
      'Invalid campaign_id: ""',
    );
    // `null` reads as none, as openapi-fetch reads it (not a TypeError of reading null).
    await expect(client.GET('/campaigns/{campaign_id}', { params: { path: null } } as never)).rejects.toThrow(
      'Invalid campaign_id: ""',
    );
    expect(server.received).toHaveLength(0);
    const given: unknown[] = [];
    const serializer = (value: unknown) => (given.push(value), '');
    await client.GET('/campaigns', { params: { query: null }, querySerializer: serializer } as never);
    await client.GET('/campaigns/{campaign_id}', {
      params: { path: null },
      pathSerializer: (_template: string, value: unknown) => (given.push(value), `/campaigns/${campaign_id}`),
    } as never);
    expect(given).toEqual([{}, {}]);
  });

  it('leave other values with dots as they are, encoded: no route change', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, campaign: {} }));
    const client = clientOf(server);
    for (const value of ['...', '.a', 'a.', '%2e', '%2e%2e', '.%2e', '/..', ' ']) {
      await getCampaign(client, { campaign_id: value });
      await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id: value } } });
    }
    expect(server.received.map((request) => request.url)).toEqual(
      ['...', '.a', 'a.', '%252e', '%252e%252e', '.%252e', '%2F..', '%20'].flatMap((sent) => [
        `/v1/campaigns/${sent}`,
        `/v1/campaigns/${sent}`,
      ]),
    );
  });
});

describe('path API runtime', () => {
  it('serializes query scalars, arrays (form, exploded) and objects (deepObject); leaves out null', () => {
    expect(serializeQuery({ a: 'x y', b: 2, c: null, d: undefined, e: [1, 2], f: { g: 'h&' } })).toBe(
      'a=x%20y&b=2&e=1&e=2&f[g]=h%26',
    );
  });

  it('sends path, query, header params, headers (null removes one) and a JSON body', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true }));
    const client = clientOf(server, { headers: { 'X-Team': 'growth' } });
    await client.PATCH('/campaigns/{campaign_id}', {
      params: { path: { campaign_id }, header: { 'X-Request-ID': 'req_mine' } },
      body: { is_active: true },
      headers: { 'X-Team': null as unknown as string, 'X-Extra': '1' },
    });
    await client.GET('/leads', { params: { query: { campaign_id, limit: 5 } } });
    const [patch, get] = server.received;
    expect(patch).toMatchObject({ method: 'PATCH', url: `/v1/campaigns/${campaign_id}`, body: '{"is_active":true}' });
    expect(patch?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-request-id': 'req_mine',
      'x-extra': '1',
    });
    expect(patch?.headers['x-team']).toBeUndefined();
    expect(get?.url).toBe(`/v1/leads?campaign_id=${campaign_id}&limit=5`);
    expect(get?.headers['content-type']).toBeUndefined();
  });

  it('sends no member of a polluted Object.prototype as a parameter or a body field, on either API', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, campaign: {} }));
    const client = clientOf(server);
    const polluted = Object.prototype as Record<string, unknown>;
    // As a pollution gadget's `obj.__proto__.x = ...` adds them: enumerable, so `for...in` saw them.
    polluted.limit = 7;
    polluted.is_admin = true;
    try {
      await client.GET('/leads', { params: { query: { campaign_id } } });
      await getCampaign(client, { campaign_id });
      await createCampaign(client, { name: 'Q4' });
    } finally {
      delete polluted.limit;
      delete polluted.is_admin;
    }
    const [listed, got, created] = server.received;
    expect(listed?.url).toBe(`/v1/leads?campaign_id=${campaign_id}`);
    expect(got?.url).toBe(`/v1/campaigns/${campaign_id}`);
    expect(created?.body).toBe('{"name":"Q4"}');
  });

  it('parseAs, an empty answer, and an error body that is not JSON', async () => {
    const server = await startServer((request, response) => {
      if (request.url.includes('empty')) return response.writeHead(204).end();
      if (request.url.includes('broken'))
        return response.writeHead(502, { 'Content-Type': 'text/html' }).end('<h1>bad</h1>');
      json(response, 200, { success: true });
    });
    const client = clientOf(server, { maxRetries: 0 });
    const text = await client.GET('/auth/verify', { parseAs: 'text' });
    expect(text.data).toBe('{"success":true}');
    const empty = await client.request('get' as never, '/empty' as never);
    expect(empty).toMatchObject({ data: undefined });
    expect(empty.response.status).toBe(204);
    const broken = await client.request('GET' as never, '/broken' as never);
    expect(broken.error).toBe('<h1>bad</h1>');
  });

  it('sends an array path param as its items joined by commas; an empty error answer is error: undefined', async () => {
    const server = await startServer((request, response) =>
      request.url?.includes('gone')
        ? response.writeHead(404, { 'Content-Length': '0' }).end()
        : json(response, 200, { success: true }),
    );
    const client = clientOf(server, { maxRetries: 0 });
    await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id: ['a b', 'c'] as never } } });
    expect(server.received[0]?.url).toBe('/v1/campaigns/a%20b%2Cc');
    const gone = await client.request('GET' as never, '/gone' as never);
    expect(Object.keys(gone)).toEqual(['error', 'response']);
    expect(gone.error).toBeUndefined();
  });

  describe("a 2xx answer whose body is not the API's JSON object", () => {
    /** What each API throws for the same answer: the path API and the named operation. */
    const bothApis = async (client: OcsClient) =>
      Promise.all([
        client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } }).catch((error: unknown) => error),
        getCampaign(client, { campaign_id }).catch((error: unknown) => error),
      ]);

    it.each([
      ['with a Content-Length', false],
      ['chunked', true],
    ])(
      'not JSON (%s): an OcsApiError saying so, with the status and request ID, on both APIs',
      async (_how, chunked) => {
        const server = await startServer((_request, response) => {
          response.writeHead(200, { 'Content-Type': 'application/json', 'X-Request-ID': 'req_portal' });
          // Node sets Content-Length when the whole body goes in end(), and chunks it otherwise.
          if (chunked) response.write('<html>captive ');
          response.end(chunked ? 'portal</html>' : '<html>captive portal</html>');
        });
        const errors = await bothApis(clientOf(server, { maxRetries: 0 }));
        for (const error of errors) {
          expect(error).toBeInstanceOf(OcsApiError);
          expect(error).toMatchObject({
            status: 200,
            code: 'INTERNAL_ERROR',
            requestId: 'req_portal',
            body: '<html>captive portal</html>',
          });
          expect((error as Error).message).toBe(
            "Not the API's answer (not valid JSON): check baseUrl. (INTERNAL_ERROR, HTTP 200, request req_portal)",
          );
        }
      },
    );

    it.each([
      ['null', null],
      ['a string', 'ok'],
      ['a number', 42],
    ])('JSON %s: an OcsApiError on both APIs, as a named operation throws', async (_name, value) => {
      const server = await startServer((_request, response) =>
        response.writeHead(200, { 'X-Request-ID': 'req_odd' }).end(JSON.stringify(value)),
      );
      const errors = await bothApis(clientOf(server, { maxRetries: 0 }));
      for (const error of errors) {
        expect(error).toBeInstanceOf(OcsApiError);
        expect(error).toMatchObject({ status: 200, requestId: 'req_odd', body: value });
        expect((error as Error).message).toBe(
          "Not the API's answer: check baseUrl. (INTERNAL_ERROR, HTTP 200, request req_odd)",
        );
      }
    });

    it('an empty 2xx body is still no data, and parseAs other than json reads the body as asked', async () => {
      const server = await startServer((request, response) => {
        if (request.url.includes('empty')) return response.writeHead(200).end();
        response.writeHead(200).end('<html>not json</html>');
      });
      const client = clientOf(server, { maxRetries: 0 });
      const empty = await client.request('GET' as never, '/empty' as never);
      expect(empty).toMatchObject({ data: undefined });
      const text = await client.GET('/auth/verify', { parseAs: 'text' });
      expect(text.data).toBe('<html>not json</html>');
    });
  });

  it('middlewares: onRequest may answer, onError may recover, per-request middleware runs too', async () => {
    const server = await startServer((_request, response) => response.socket?.destroy());
    const client = clientOf(server, { maxRetries: 0 });
    const order: string[] = [];
    client.use({
      onRequest: ({ schemaPath }) => {
        order.push(`global ${schemaPath}`);
        if (schemaPath === '/auth/verify') return Response.json({ success: true, from: 'hook' });
        return undefined;
      },
    });
    const answered = await client.GET('/auth/verify');
    expect(answered.data).toMatchObject({ from: 'hook' });
    expect(server.received).toHaveLength(0);
    const recovered = await client.GET('/campaigns', {
      middleware: [
        {
          onError: ({ error }) => {
            order.push(`onError ${(error as Error).name}`);
            return Response.json({ success: true, campaigns: [] });
          },
        },
      ],
    });
    expect(recovered.data).toMatchObject({ campaigns: [] });
    expect(order).toEqual(['global /auth/verify', 'global /campaigns', 'onError OcsConnectionError']);
    expect(() => client.use({} as never)).toThrow(/Middleware needs onRequest, onResponse or onError/);
  });

  it('a per-request fetch is called as openapi-fetch calls it (the Request alone), so fetch itself will do', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, via: 'fetch' }));
    const client = clientOf(server);
    const calls: unknown[][] = [];
    const { data } = await client.GET('/auth/verify', {
      fetch: (...args: Parameters<typeof fetch>) => {
        calls.push(args);
        return fetch(...args);
      },
    });
    expect(data).toMatchObject({ via: 'fetch' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.[0]).toBeInstanceOf(Request);
    expect(calls[0]?.[1]).toBeUndefined();
    expect((await client.GET('/auth/verify', { fetch: globalThis.fetch })).data).toMatchObject({ via: 'fetch' });
  });

  it("a middleware may send with its options' fetch, through the client's transport", async () => {
    const server = await startServer((request, response) =>
      json(response, 200, { success: true, path: request.url, auth: request.headers.authorization }),
    );
    const client = clientOf(server);
    let resent: unknown;
    client.use({
      async onResponse({ request, options }) {
        resent = await (await options.fetch(new Request(request.url.replace('/auth/verify', '/campaigns')))).json();
        return undefined;
      },
    });
    await client.GET('/auth/verify');
    expect(resent).toMatchObject({ path: '/v1/campaigns' });
    expect(server.received).toHaveLength(2);
  });
});
