/**
 * `/docs` on the Node listener: the reference page and Redoc's script from the package files,
 * with no API key and outside every rate-limit budget; other methods and unknown paths still
 * get the API's 404 error body; without the renderer, a 404 page says what to install.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withDocs, rendererModule } from '../../src/docs/docs-route.ts';
import { rendererPath } from '../../src/docs/reference-page.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createApiKey, createOrganization } from '../../src/seed/organizations.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const total = 3;
let server: RunningServer;
let apiKey: string;

beforeAll(async () => {
  const store = createMemoryStore();
  const organization = await createOrganization(store, { name: 'Docs' });
  ({ key: apiKey } = await createApiKey(store, { organizationId: organization.id }));
  server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true, rateLimits: { total } });
});
afterAll(async () => {
  await server?.close();
});

it('serves the reference page, which loads the renderer and the document from this server', async () => {
  const response = await fetch(`${server.url}/docs`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await response.text();
  expect(html).toContain(`<script src="${rendererPath}"></script>`);
  expect(html).toContain('Redoc.init("/openapi.json"');
  // Nothing the page names lives elsewhere.
  expect(html).not.toMatch(/https?:\/\//);
  expect((await fetch(`${server.url}/docs/`)).status).toBe(200);
});

it("serves Redoc's standalone bundle from the installed package", async () => {
  const response = await fetch(`${server.url}${rendererPath}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  const installed = readFileSync(createRequire(import.meta.url).resolve(rendererModule), 'utf8');
  expect(await response.text()).toBe(installed);
});

it('counts against no budget: more visits than the whole budget, and the API still has all of it', async () => {
  for (let visit = 0; visit < total + 2; visit++) {
    const response = await fetch(`${server.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-remaining')).toBeNull();
  }
  const api = await fetch(`${server.url}/v1/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(api.status).toBe(200);
  expect(api.headers.get('ratelimit-remaining')).toBe(String(total - 1));
});

it('leaves other methods and unknown paths to the API: its 404 error body', async () => {
  for (const [method, path] of [
    ['POST', '/docs'],
    ['GET', '/docs/other.js'],
    ['GET', '/documentation'],
  ] as const) {
    const response = await fetch(`${server.url}${path}`, { method });
    expect(response.status, `${method} ${path}`).toBe(404);
    const body = (await response.json()) as { success: boolean; error: string; message: string };
    expect(body).toMatchObject({ success: false, error: 'NOT_FOUND' });
    expect(body.message).toContain(path);
  }
});

it('without the renderer, answers a 404 page that says what to install', async () => {
  const missingRenderer = 'Install redoc: npm install redoc';
  const fetchWithDocs = withDocs({ loadRenderer: async () => undefined, missingRenderer })(async () =>
    Response.json({ api: true }),
  );
  for (const path of ['/docs', rendererPath]) {
    const response = await fetchWithDocs(new Request(`http://localhost${path}`));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain(missingRenderer);
  }
  const other = await fetchWithDocs(new Request('http://localhost/v1/campaigns'));
  expect(await other.json()).toEqual({ api: true });
});
