/**
 * `/docs` on the standalone mock: the API reference page and Redoc's script when Redoc is
 * installed (it is here, through @ocs/server), outside `/v1` with no key and no budget; the
 * API's 404 everywhere else; without Redoc, a 404 page naming what to install. Redoc is an
 * optional peer of @ocs/mock, never a dependency (install-budget.test.ts checks that installing
 * @ocs/mock brings no Redoc).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withDocs } from '@ocs/server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';
import { mockDocs, redocMissing } from '../src/server/docs.ts';

let server: MockServer;
let origin: string;

beforeAll(async () => {
  server = await startMockServer({ port: 0, rateLimits: { total: 2 } });
  origin = new URL(server.url).origin;
});
afterAll(() => server?.close());

it('serves the reference page and the renderer it loads, with no key', async () => {
  const page = await fetch(`${origin}/docs`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await page.text();
  expect(html).toContain('ocs-mock');
  const src = /<script src="([^"]+)"><\/script>/.exec(html)?.[1];
  expect(src).toBe('/docs/redoc.standalone.js');
  const script = await fetch(`${origin}${src}`);
  expect(script.status).toBe(200);
  expect(await script.text()).toContain('Redoc');
  // The document the page loads is the one the mock serves.
  expect((await fetch(`${origin}/openapi.json`)).status).toBe(200);
});

it('counts against no budget: more visits than the whole budget, and the API still has all of it', async () => {
  for (let visit = 0; visit < 4; visit++) expect((await fetch(`${origin}/docs`)).status).toBe(200);
  const api = await fetch(`${server.url}/campaigns`, { headers: { Authorization: `Bearer ${server.apiKey}` } });
  expect(api.status).toBe(200);
  expect(api.headers.get('ratelimit-remaining')).toBe('1');
});

it('leaves other methods and unknown paths to the API: its 404 error body', async () => {
  for (const [method, path] of [
    ['POST', '/docs'],
    ['GET', '/docs/other.js'],
  ] as const) {
    const response = await fetch(`${origin}${path}`, { method });
    expect(response.status, `${method} ${path}`).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, error: 'NOT_FOUND' });
  }
});

it('without Redoc installed, /docs answers a 404 page naming what to install', async () => {
  const notInstalled = (id: string): string => {
    throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  };
  const fetchWithDocs = withDocs(mockDocs(notInstalled))(async () => Response.json({ api: true }));
  const response = await fetchWithDocs(new Request('http://127.0.0.1/docs'));
  expect(response.status).toBe(404);
  expect(await response.text()).toContain(redocMissing);
});

it('declares Redoc as an optional peer, in the range the message names, and never as a dependency', () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  expect(manifest.dependencies.redoc).toBeUndefined();
  expect(manifest.peerDependenciesMeta.redoc?.optional).toBe(true);
  expect(redocMissing).toContain(`npm install --save-dev redoc@${manifest.peerDependencies.redoc}`);
});
