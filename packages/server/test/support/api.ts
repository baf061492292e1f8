/**
 * Calls the application as a client would, and checks every answer against the OpenAPI
 * document: the status must be documented for the operation, the body must match that
 * status's schema, and `X-Request-ID` and `RateLimit-*` must be present. Any mismatch fails
 * the test that made the call.
 */
import { expect } from 'vitest';
import { type App, type AppOptions, createApp } from '../../src/app.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import type { Store } from '../../src/store/types.ts';
import { contractViolations } from './contract.ts';

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
  const where = `${method} ${path} answered ${response.status} ${JSON.stringify(body)}`;
  expect(contractViolations(method, path, response, body), `not as documented: ${where}`).toEqual([]);
}
