/**
 * The mock's own handlers match as MSW's `http.all` / `http.get` would, but read no cookies
 * (the application authenticates by API key); overrides, MSW's own handlers, still get them.
 */
import { http, HttpHandler, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppHandler } from '../src/core/app-handler.ts';
import { createOcsMock } from '../src/node/index.ts';

const mock = await createOcsMock({ baseUrl: 'https://api.example.com/prefix' });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const withCookie = (path: string) =>
  fetch(`${mock.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${mock.apiKey}`, Cookie: 'session=abc; theme=dark' },
  });

it('are MSW HttpHandlers that match the base URL, the documents and connect links, and parse no cookies', async () => {
  // The API, /openapi.json, /openapi.yaml and the connect links' page (/connect/{token}).
  expect(mock.handlers).toHaveLength(4);
  for (const handler of mock.handlers) expect(handler).toBeInstanceOf(HttpHandler);
  const [app] = mock.handlers as AppHandler[];
  const request = new Request(`${mock.baseUrl}/campaigns?limit=1`, { headers: { Cookie: 'session=abc' } });
  const parsed = await app?.parse({ request });
  expect(parsed?.match.matches).toBe(true);
  expect(parsed?.cookies).toEqual({});
  const elsewhere = await app?.parse({ request: new Request('https://api.example.com/other/v1/campaigns') });
  expect(elsewhere?.match.matches).toBe(false);

  const answer = await withCookie('/campaigns');
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { total: number }).total).toBe(3);
  const document = await fetch('https://api.example.com/openapi.json');
  expect(document.status).toBe(200);
  // The GET-only handlers answer no other method (the application's 404/405 is for /v1 only).
  await expect(fetch('https://api.example.com/openapi.json', { method: 'POST' })).rejects.toThrow();
});

it('leave cookies to overrides, which still receive them', async () => {
  mock.use(http.get(`${mock.baseUrl}/campaigns`, ({ cookies }) => HttpResponse.json({ cookies })));
  const answer = await withCookie('/campaigns');
  expect(await answer.json()).toEqual({ cookies: { session: 'abc', theme: 'dark' } });
  mock.reset();
  expect((await withCookie('/campaigns')).status).toBe(200);
});

it('answer a path whose escape is no UTF-8 as the service does (404), through MSW and mock.fetch', async () => {
  // MSW decodes path parameters and threw `URIError: URI malformed` on `%FF`: mock.fetch
  // rejected, and through setupServer MSW answered a 500 of its own.
  const headers = { Authorization: `Bearer ${mock.apiKey}` };
  for (const answer of [
    await fetch(`${mock.baseUrl}/leads/x%FF`, { headers }),
    await mock.fetch(`${mock.baseUrl}/leads/x%FF`, { headers }),
    await mock.fetch(`${mock.baseUrl}/campaigns/%E0%A4%A/analysis`, { headers }),
  ]) {
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { success: boolean; error: string }).success).toBe(false);
  }
});
