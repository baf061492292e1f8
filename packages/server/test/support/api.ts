/**
 * Calls the application as a client would, and checks every answer against the OpenAPI
 * document: the status must be documented for the operation, the body must match that
 * status's schema, and `X-Request-ID` and `RateLimit-*` must be present. Any mismatch fails
 * the test that made the call.
 */
import {
  createSchemaValidator,
  type JsonObject,
  loadBundledDocument,
  operationsOf,
  responsesOf,
} from '@ocs/openapi/support';
import { expect } from 'vitest';
import { type App, type AppOptions, createApp } from '../../src/app.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import type { Store } from '../../src/store/types.ts';

const document = loadBundledDocument();
const validator = createSchemaValidator(document);
const operations = operationsOf(document)
  .filter((op) => op.section === 'paths')
  .map((op) => ({
    ...op,
    pattern: new RegExp(`^/v1${op.path.replaceAll(/\{\w+\}/g, '[^/]+')}$`),
    params: (op.path.match(/\{/g) ?? []).length,
  }))
  // Static segments win, as in the server's router.
  .sort((a, b) => a.params - b.params);

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text (takes precedence over `body`). */
  rawBody?: string;
  /** API key; `null` sends no Authorization header. Defaults to the test organization's. */
  key?: string | null;
  headers?: Record<string, string>;
  /** Skip the document check (for answers the document cannot describe, like a closed route). */
  unchecked?: boolean;
}

export interface TestApi {
  app: App;
  store: Store;
  key: string;
  organizationId: string;
  ownerId: string;
  call<T = Record<string, unknown>>(method: string, path: string, options?: CallOptions): Promise<ApiAnswer<T>>;
}

export async function createTestApi(store: Store, options: Omit<AppOptions, 'store'> = {}): Promise<TestApi> {
  const app = createApp({ store, ...options });
  const demo = await seedDemoOrganization(store, { name: 'Test Outreach' });
  const api: TestApi = {
    app,
    store,
    key: demo.apiKey,
    organizationId: demo.organizationId,
    ownerId: demo.ownerId,
    async call(method, path, callOptions = {}) {
      const headers: Record<string, string> = { ...callOptions.headers };
      const key = callOptions.key === undefined ? demo.apiKey : callOptions.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (callOptions.rawBody !== undefined) body = callOptions.rawBody;
      else if (callOptions.body !== undefined) body = JSON.stringify(callOptions.body);
      if (body !== undefined) headers['Content-Type'] ??= 'application/json';
      const response = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
      const text = await response.text();
      const parsed = text === '' ? undefined : JSON.parse(text);
      if (!callOptions.unchecked) checkAgainstDocument(method, path, response, parsed);
      return { status: response.status, body: parsed, headers: response.headers };
    },
  };
  return api;
}

export function checkAgainstDocument(method: string, path: string, response: Response, body: unknown): void {
  const pathname = path.split('?')[0] ?? path;
  const where = `${method} ${path} answered ${response.status} ${JSON.stringify(body)}`;
  expect(response.headers.get('x-request-id'), `X-Request-ID on ${where}`).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
    expect(response.headers.get(header), `${header} on ${where}`).toMatch(/^\d+$/);
  }
  const operation = operations.find((op) => op.method === method.toLowerCase() && op.pattern.test(pathname));
  if (!operation) {
    // No operation matches: the answer must be the error body's 404 NOT_FOUND.
    expect(response.status, where).toBe(404);
    const result = validator.validate('#/components/schemas/ErrorBody', body);
    expect(result.errors, where).toEqual([]);
    expect((body as JsonObject).error, where).toBe('NOT_FOUND');
    return;
  }
  const documented = responsesOf(document, operation).find((r) => r.status === String(response.status));
  expect(documented, `undocumented status: ${where}`).toBeDefined();
  const media = (documented?.response.content as JsonObject | undefined)?.['application/json'];
  if (media) {
    const result = validator.validate(`${documented?.pointer}/content/application~1json/schema`, body);
    expect(result.errors, `body does not match the document: ${where}`).toEqual([]);
  }
  for (const name of Object.keys((documented?.response.headers as JsonObject | undefined) ?? {})) {
    if (['Retry-After', 'Deprecation', 'Link'].includes(name)) {
      const required = name !== 'Retry-After' || response.status === 429;
      if (required) expect(response.headers.get(name), `${name} on ${where}`).toBeTruthy();
    }
  }
}
