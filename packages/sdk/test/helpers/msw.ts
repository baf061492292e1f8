/**
 * MSW in Node for the client's failure scenarios: one server per test file, handlers per
 * test, and a log of every request the "service" received (method, URL, headers, body).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createClient, type ClientOptions } from '../../src/index.ts';

export const baseUrl = 'http://ocs.test/v1';
export const apiKey = 'ocs_test_0123456789';

export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  /** The request body as text (read from a copy, so await it). */
  body: Promise<string>;
}

/** The bodies of the requests seen, in order. */
export const bodies = (seen: Seen[]) => Promise.all(seen.map((request) => request.body));

/** Starts MSW for the file; `seen` lists the requests of the current test. */
export function useMsw() {
  const server = setupServer();
  const seen: Seen[] = [];
  server.events.on('request:start', ({ request }) => {
    const body = request.clone().text();
    seen.push({ method: request.method, url: new URL(request.url), headers: request.headers, body });
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => server.close());
  return { server, seen };
}

/** A client on the MSW base URL; retries without jitter waits unless a test wants them. */
export const testClient = (options: ClientOptions = {}) => createClient({ apiKey, baseUrl, ...options });

/** The API's error body. */
export const errorBody = (error: string, message = `${error} happened.`, extra: Record<string, unknown> = {}) => ({
  success: false,
  error,
  message,
  request_id: 'req_body_1',
  ...extra,
});
