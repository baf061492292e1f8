/**
 * CORS: the wrapper on its own (preflights, an origin not allowed, paths outside `/v1`
 * untouched, origins parsed from a command line), then in the application, where a
 * preflight needs no key and spends no budget and every error answer is readable.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import type { LogEntry } from '../../src/http/logger.ts';
import {
  cors,
  corsAllowedHeaders,
  corsExposedHeaders,
  type CorsPolicy,
  corsHeaders,
  parseCorsOrigins,
} from '../../src/http/middleware/cors.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const app = 'http://localhost:5173';
const other = 'https://evil.example';

/** A handler that records what reached it and answers 200 with a request ID. */
function recordingHandler() {
  const reached: string[] = [];
  const handler = async (request: Request) => {
    reached.push(`${request.method} ${new URL(request.url).pathname}`);
    return new Response('{}', {
      status: 200,
      headers: { 'X-Request-ID': 'req_1', 'Content-Type': 'application/json' },
    });
  };
  return { reached, handler };
}

function preflightRequest(path: string, origin: string, method = 'POST') {
  return new Request(`http://127.0.0.1:4010${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
    },
  });
}

describe('the CORS wrapper', () => {
  const policy: CorsPolicy = { origins: [app] };

  it('answers a preflight under /v1 itself, 204 with the methods, the request headers and Vary', async () => {
    const { reached, handler } = recordingHandler();
    const response = await cors(policy)(handler)(preflightRequest('/v1/campaigns', app));
    expect(reached).toEqual([]);
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(app);
    expect(response.headers.get('Access-Control-Allow-Methods')?.split(', ')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']),
    );
    expect(response.headers.get('Access-Control-Allow-Headers')).toBe('authorization, content-type, idempotency-key');
    expect(Number(response.headers.get('Access-Control-Max-Age'))).toBeGreaterThan(0);
    expect(response.headers.get('Vary')).toBe('Origin, Access-Control-Request-Headers');
    expect(response.headers.has('Access-Control-Allow-Credentials')).toBe(false);
  });

  it("allows the request headers a preflight names (a page's own, a tracer's), else the API's own list", async () => {
    const { handler } = recordingHandler();
    const wrapped = cors(policy)(handler);
    const ask = (requested: string | undefined) =>
      wrapped(
        new Request('http://127.0.0.1/v1/campaigns', {
          method: 'OPTIONS',
          headers: {
            Origin: app,
            'Access-Control-Request-Method': 'POST',
            ...(requested === undefined ? {} : { 'Access-Control-Request-Headers': requested }),
          },
        }),
      );
    const allowed = async (requested: string | undefined) =>
      (await ask(requested)).headers.get('Access-Control-Allow-Headers');
    expect(await allowed('authorization,x-ocs-client,x-team,traceparent')).toBe(
      'authorization,x-ocs-client,x-team,traceparent',
    );
    // None asked for, or something that is no list of header names: the headers the API reads.
    for (const requested of [undefined, '', 'x-team, bad name', 'x-team,,y', 'a\u00e9b', `x-${'a'.repeat(3000)}`]) {
      expect((await allowed(requested))?.split(', ')).toEqual([...corsAllowedHeaders]);
    }
  });

  it('refuses a preflight from an origin not allowed: no Allow header, and the refusal is told', async () => {
    const { reached, handler } = recordingHandler();
    const refused: string[] = [];
    const response = await cors({ ...policy, onRefused: (origin) => refused.push(origin) })(handler)(
      preflightRequest('/v1/campaigns', other),
    );
    expect(reached).toEqual([]);
    expect(response.status).toBe(204);
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect(response.headers.get('Vary')).toBe('Origin, Access-Control-Request-Headers');
    expect(refused).toEqual([other]);
  });

  it('adds the allow and expose headers to an answer for an allowed origin, and Vary to the others', async () => {
    const { handler } = recordingHandler();
    const wrapped = cors(policy)(handler);
    const allowed = await wrapped(new Request('http://127.0.0.1/v1/campaigns', { headers: { Origin: app } }));
    expect(allowed.headers.get('Access-Control-Allow-Origin')).toBe(app);
    expect(allowed.headers.get('Access-Control-Expose-Headers')?.split(', ')).toEqual([...corsExposedHeaders]);
    expect(allowed.headers.get('X-Request-ID')).toBe('req_1');
    const refused = await wrapped(new Request('http://127.0.0.1/v1/campaigns', { headers: { Origin: other } }));
    expect(refused.headers.has('Access-Control-Allow-Origin')).toBe(false);
    expect(refused.headers.get('Vary')).toBe('Origin');
    const noOrigin = await wrapped(new Request('http://127.0.0.1/v1/campaigns'));
    expect(noOrigin.headers.has('Access-Control-Allow-Origin')).toBe(false);
  });

  it('answers any origin with * when the policy allows every origin', async () => {
    const { handler } = recordingHandler();
    const wrapped = cors({ origins: '*' })(handler);
    expect((await wrapped(preflightRequest('/v1/leads', other))).headers.get('Access-Control-Allow-Origin')).toBe('*');
    const answer = await wrapped(new Request('http://127.0.0.1/v1/leads', { headers: { Origin: other } }));
    expect(answer.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('leaves every path outside /v1 alone: preflights go through, answers keep their headers', async () => {
    const { reached, handler } = recordingHandler();
    const wrapped = cors({ origins: '*' })(handler);
    for (const path of ['/__ocs-mock/reset', '/openapi.json', '/v10/campaigns', '/']) {
      const response = await wrapped(preflightRequest(path, app));
      expect(response.status).toBe(200);
      expect([...response.headers.keys()].filter((name) => /^(access-control-|vary)/.test(name))).toEqual([]);
    }
    expect(reached).toEqual([
      'OPTIONS /__ocs-mock/reset',
      'OPTIONS /openapi.json',
      'OPTIONS /v10/campaigns',
      'OPTIONS /',
    ]);
  });

  it('passes an OPTIONS without Access-Control-Request-Method to the handler: it is no preflight', async () => {
    const { reached, handler } = recordingHandler();
    await cors(policy)(handler)(
      new Request('http://127.0.0.1/v1/campaigns', { method: 'OPTIONS', headers: { Origin: app } }),
    );
    expect(reached).toEqual(['OPTIONS /v1/campaigns']);
  });

  it('adds the headers to an answer whose headers are immutable, and appends to its Vary', async () => {
    const immutable = async () => {
      const response = Response.redirect('http://127.0.0.1/v1/elsewhere', 302);
      expect(() => response.headers.set('X', '1')).toThrow();
      return response;
    };
    const wrapped = cors(policy)(immutable);
    const response = await wrapped(new Request('http://127.0.0.1/v1/campaigns', { headers: { Origin: app } }));
    expect(response.status).toBe(302);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe(app);
    const varying = cors(policy)(async () => new Response(null, { headers: { Vary: 'Accept' } }));
    const varied = await varying(new Request('http://127.0.0.1/v1/campaigns', { headers: { Origin: app } }));
    expect(varied.headers.get('Vary')).toBe('Accept, Origin');
  });

  it("passes a network error (Response.error(), the mock's connection reset) on as it is", async () => {
    const reset = Response.error();
    const wrapped = cors(policy)(async () => reset);
    const response = await wrapped(new Request('http://127.0.0.1/v1/campaigns', { headers: { Origin: app } }));
    expect(response).toBe(reset);
    expect(response.type).toBe('error');
  });

  it('gives the listener the same headers for its own answers, under /v1 only', () => {
    expect(corsHeaders(policy, app, '/v1/leads')).toMatchObject({ 'Access-Control-Allow-Origin': app, Vary: 'Origin' });
    expect(corsHeaders(policy, other, '/v1/leads')).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(policy, app, '/openapi.json')).toEqual({});
  });
});

describe('parseCorsOrigins', () => {
  it('takes repeated and comma-separated origins, normalised and without duplicates', () => {
    expect(parseCorsOrigins(['http://localhost:5173, https://App.example.com/', 'http://localhost:5173'])).toEqual([
      'http://localhost:5173',
      'https://app.example.com',
    ]);
    expect(parseCorsOrigins(['http://localhost:80'])).toEqual(['http://localhost']);
  });

  it('takes * alone for any origin', () => {
    expect(parseCorsOrigins(['*'])).toBe('*');
    expect(parseCorsOrigins([' * ,', '*'])).toBe('*');
  });

  it('refuses * mixed with named origins, naming them', () => {
    expect(() => parseCorsOrigins(['http://localhost:5173', '*'])).toThrow(
      '* (any origin) cannot be mixed with named origins (http://localhost:5173): give * alone, or only the origins.',
    );
    expect(() => parseCorsOrigins(['*,https://a.example'])).toThrow(/cannot be mixed with named origins/);
  });

  it.each(['localhost:5173', 'http://localhost:5173/app', 'ftp://files.example', 'http://a@b.example', 'not a url'])(
    'refuses %s, saying what an origin looks like',
    (value) => {
      expect(() => parseCorsOrigins([value])).toThrow(/is not an origin: write scheme:\/\/host\[:port\]/);
    },
  );
});

describe('CORS in the application', () => {
  async function corsApp(origins: CorsPolicy['origins']) {
    const store = createMemoryStore();
    const logs: LogEntry[] = [];
    const served = createApp({
      store,
      cors: { origins },
      rateLimits: { perEndpoint: 2, total: 100 },
      logger: { log: (entry) => logs.push(entry) },
    });
    const { apiKey } = await seedDemoOrganization(store, { name: 'CORS Outreach' });
    const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
      served.fetch(new Request(`http://127.0.0.1:4010${path}`, { ...init, headers: { Origin: app, ...init.headers } }));
    return { served, apiKey, call, logs };
  }

  it('answers preflights without a key and without spending the budget', async () => {
    const { apiKey, call } = await corsApp([app]);
    for (let i = 0; i < 5; i++) {
      const preflight = await call('/v1/campaigns', {
        method: 'OPTIONS',
        headers: { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(preflight.status).toBe(204);
    }
    const first = await call('/v1/campaigns', { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(first.status).toBe(200);
    expect(first.headers.get('RateLimit-Remaining')).toBe('1');
    expect(first.headers.get('Access-Control-Allow-Origin')).toBe(app);
  });

  it('makes error answers readable: 401, 429, 415 and 404 carry the CORS headers', async () => {
    const { apiKey, call } = await corsApp([app]);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const answers = {
      401: await call('/v1/campaigns'),
      415: await call('/v1/campaigns', {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'text/plain' },
        body: 'x',
      }),
      404: await call('/v1/no-such-thing', { headers: auth }),
    };
    await call('/v1/leads', { headers: auth });
    await call('/v1/leads', { headers: auth });
    const limited = await call('/v1/leads', { headers: auth });
    for (const [status, response] of [...Object.entries(answers), ['429', limited] as const]) {
      expect(response.status).toBe(Number(status));
      expect(response.headers.get('Access-Control-Allow-Origin')).toBe(app);
      expect(response.headers.get('Access-Control-Expose-Headers')).toContain('X-Request-ID');
      expect(response.headers.get('X-Request-ID')).toMatch(/^req_/);
    }
    expect(limited.headers.get('Retry-After')).not.toBeNull();
    expect(limited.headers.get('Access-Control-Expose-Headers')).toContain('Retry-After');
  });

  it('logs a refused preflight with the origin, and serves no CORS header outside /v1', async () => {
    const { call, logs } = await corsApp(['https://app.example.com']);
    const refused = await call('/v1/campaigns', {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'GET' },
    });
    expect(refused.headers.has('Access-Control-Allow-Origin')).toBe(false);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', origin: app }));
    const document = await call('/openapi.json');
    expect(document.status).toBe(200);
    expect(document.headers.has('Access-Control-Allow-Origin')).toBe(false);
  });

  it('sends no CORS header at all without a policy', async () => {
    const store = createMemoryStore();
    const served = createApp({ store });
    const preflight = await served.fetch(preflightRequest('/v1/campaigns', app));
    expect(preflight.status).toBe(404);
    expect(preflight.headers.has('Access-Control-Allow-Origin')).toBe(false);
  });
});
