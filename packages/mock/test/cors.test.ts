/**
 * The standalone mock's CORS over real HTTP, without a browser: any origin by default,
 * the origins given otherwise, headers on the scenarios' answers too, and the control routes
 * untouched (no CORS header, and a foreign Origin refused).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

const page = 'http://localhost:5173';
let mock: MockServer;
let control: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 2 });
  control = mock.url.replace(/\/v1$/, '/__ocs-mock');
});
afterAll(() => mock.close());

const preflight = (url: string, origin = page) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, idempotency-key, x-team',
    },
  });

const accessControl = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('the standalone mock', () => {
  it('answers a preflight under /v1 from any origin by default', async () => {
    const response = await preflight(`${mock.url}/campaigns`);
    expect(response.status).toBe(204);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    // What the page asked for, its own header included.
    expect(response.headers.get('Access-Control-Allow-Headers')).toBe('authorization, idempotency-key, x-team');
  });

  it("puts the headers on a scenario's answer, given before the application", async () => {
    mock.scenarios.unavailable({ times: 1 });
    const response = await fetch(`${mock.url}/campaigns`, {
      headers: { Origin: page, Authorization: `Bearer ${mock.apiKey}` },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(response.headers.get('Access-Control-Expose-Headers')).toContain('Retry-After');
  });

  it('leaves the control routes alone: no preflight answer, no CORS header', async () => {
    const answer = await preflight(`${control}/reset`);
    expect(answer.status).toBe(403);
    expect(accessControl(answer)).toEqual([]);
    const data = await fetch(`${control}/data`);
    expect(data.status).toBe(200);
    expect(accessControl(data)).toEqual([]);
  });

  it('refuses a control request from a page on another origin, and serves one without Origin', async () => {
    const foreign = await fetch(`${control}/reset`, { method: 'POST', headers: { Origin: page } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: string }).error).toContain(page);
    expect((await fetch(`${control}/reset`, { method: 'POST' })).status).toBe(204);
  });

  it('refuses a control request by a host name (DNS rebinding: Origin and Host agree), serves localhost', async () => {
    const { port } = new URL(mock.url);
    const rebound = `evil.example:${port}`;
    const reset = await rawRequest('POST', '/__ocs-mock/reset', { Host: rebound, Origin: `http://${rebound}` });
    expect(reset.status).toBe(403);
    expect(reset.body).toContain('evil.example');
    const data = await rawRequest('GET', '/__ocs-mock/data', { Host: rebound });
    expect(data.status).toBe(403);
    expect(data.body).not.toContain(mock.apiKey);
    expect((await rawRequest('POST', '/__ocs-mock/reset', { Host: `localhost:${port}` })).status).toBe(204);
  });

  it('routes by path only: a query naming the control path is still an API request', async () => {
    const answer = await fetch(`${mock.url}/campaigns?x=/__ocs-mock/`, {
      headers: { Authorization: `Bearer ${mock.apiKey}` },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { success: boolean }).success).toBe(true);
  });

  it('allows only the origins given with corsOrigins', async () => {
    const strict = await startMockServer({ port: 0, seed: 2, corsOrigins: [page] });
    try {
      expect((await preflight(`${strict.url}/leads`)).headers.get('Access-Control-Allow-Origin')).toBe(page);
      const refused = await preflight(`${strict.url}/leads`, 'https://evil.example');
      expect(accessControl(refused)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('corsOrigins given to startMockServer', () => {
  it('refuses * among named origins, and a value that is not an origin, before listening', async () => {
    await expect(startMockServer({ port: 0, corsOrigins: ['*', page] })).rejects.toThrow(
      new TypeError(
        `@ocs/mock: corsOrigins: * (any origin) cannot be mixed with named origins (${page}): give * alone, or only the origins.`,
      ),
    );
    await expect(startMockServer({ port: 0, corsOrigins: ['localhost:5173'] })).rejects.toThrow(
      /^@ocs\/mock: corsOrigins: 'localhost:5173' is not an origin: write scheme:\/\/host\[:port\]/,
    );
  });

  it("reads an origin written with a trailing slash, and ['*'] as any origin", async () => {
    const slash = await startMockServer({ port: 0, seed: 2, corsOrigins: [`${page}/`] });
    const any = await startMockServer({ port: 0, seed: 2, corsOrigins: ['*'] });
    try {
      expect((await preflight(`${slash.url}/leads`)).headers.get('Access-Control-Allow-Origin')).toBe(page);
      expect(
        (await preflight(`${any.url}/leads`, 'https://any.example')).headers.get('Access-Control-Allow-Origin'),
      ).toBe('*');
    } finally {
      await slash.close();
      await any.close();
    }
  });
});

/** A request with a Host header of our choosing (fetch does not let one set Host). */
function rawRequest(method: string, path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(mock.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = httpRequest({ host: hostname, port, method, path, headers }, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}
