/**
 * What Node's HTTP parser refuses (431, malformed HTTP) or would answer bare (an empty 400,
 * a 417, a closed connection) is answered by `ocs-mock` as the reference server answers it:
 * in the API's error body, with an X-Request-ID and the `RateLimit-*` headers. Both listen on
 * `@ocs/server/http-server`; before, the mock's listener gave Node's bare answers (found by an
 * attack, 2026-11-28).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RawAnswer, rawExchange } from '../../../scripts/test-support/raw-http.ts';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 11 });
});
afterAll(async () => {
  await server?.close();
});

function expectErrorBody(answer: RawAnswer, status: number, error: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  const body = answer.body as { success: boolean; error: string; message: string; request_id: string };
  expect(body).toMatchObject({ success: false, error, message: expect.any(String) });
  expect(body.request_id).toBe(answer.headers.get('x-request-id'));
  expect(answer.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
}

it('answers headers over Node’s limit with 431 REQUEST_HEADERS_TOO_LARGE in the error body', async () => {
  const big = 'x'.repeat(20_000);
  const answer = await rawExchange(
    server.url,
    `GET /v1/campaigns HTTP/1.1\r\nHost: localhost\r\nX-Big: ${big}\r\nConnection: close\r\n\r\n`,
  );
  expectErrorBody(answer, 431, 'REQUEST_HEADERS_TOO_LARGE');
});

it('answers malformed HTTP, no Host, an Expect it cannot meet and CONNECT with 400 VALIDATION_ERROR', async () => {
  for (const request of [
    'GET /v1/campaigns HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n',
    'GET /v1/campaigns HTTP/1.1\r\nConnection: close\r\n\r\n',
    'POST /v1/campaigns HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\nContent-Length: 2\r\n\r\n{}',
    'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n',
  ]) {
    expectErrorBody(await rawExchange(server.url, request), 400, 'VALIDATION_ERROR');
  }
});

it('still answers ordinary requests, with the caller’s X-Request-ID', async () => {
  const answer = await fetch(`${server.url}/campaigns`, {
    headers: { Authorization: `Bearer ${server.apiKey}`, 'X-Request-ID': 'trace-mock-1' },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-request-id')).toBe('trace-mock-1');
  await answer.arrayBuffer();
});
