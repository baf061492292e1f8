/**
 * Requests that parse as HTTP but that Node or the adapter would answer bare (an empty 400,
 * a 417, a closed connection) answer in the API's error body with an X-Request-ID, on the
 * real Node listener (issue 10, item 3).
 */
import { createSchemaValidator, loadBundledDocument } from '@ocs/openapi/support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawExchange as rawExchangeWith } from '../../../../scripts/test-support/raw-http.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const schemas = createSchemaValidator(loadBundledDocument());
let server: RunningServer;

beforeAll(async () => {
  server = await serve({ store: createMemoryStore(), port: 0, host: '127.0.0.1', quiet: true });
});
afterAll(async () => {
  await server?.close();
});

const rawExchange = (bytes: string) => rawExchangeWith(server.url, bytes);

function expectMalformed(answer: { status: number; headers: Headers; body: unknown }, requestId?: string): void {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toBe('application/json');
  const body = answer.body as { error: string; request_id: string; details: { errors: Array<{ type: string }> } };
  expect(body.error).toBe('VALIDATION_ERROR');
  expect(body.details.errors.map((issue) => issue.type)).toEqual(['malformed_http']);
  expect(body.request_id).toBe(answer.headers.get('x-request-id'));
  if (requestId) expect(body.request_id).toBe(requestId);
  expect(schemas.validate('#/components/schemas/ErrorBody', body).errors).toEqual([]);
}

it('answers an HTTP/1.1 request without Host in the error body', async () => {
  expectMalformed(await rawExchange('GET /v1/campaigns HTTP/1.1\r\nConnection: close\r\n\r\n'));
});

it('answers a target that is not a path (OPTIONS *, an authority) in the error body', async () => {
  expectMalformed(await rawExchange('OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
  expectMalformed(await rawExchange('GET example.com HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
});

it('answers an Expect it cannot meet in the error body, with the caller X-Request-ID', async () => {
  const request =
    'POST /v1/campaigns HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\nX-Request-ID: trace-expect\r\n' +
    'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
  expectMalformed(await rawExchange(request), 'trace-expect');
});

it('marks an Expect it cannot meet on a deprecated operation with Deprecation and the successor', async () => {
  const request =
    'POST /v1/campaigns/6c0e3f9e-8a3b-4d5e-9f10-123456789abc/webhook/deactivate HTTP/1.1\r\nHost: localhost\r\n' +
    'Expect: foo\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
  const answer = await rawExchange(request);
  expectMalformed(answer);
  expect(answer.headers.get('deprecation')).toBe('true');
  expect(answer.headers.get('link')).toBe(
    '</v1/campaigns/{campaign_id}/webhooks/{webhook_id}>; rel="successor-version"',
  );
});

it('answers CONNECT in the error body and closes', async () => {
  expectMalformed(await rawExchange('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'));
});

it('still serves a request with Host and a path target', async () => {
  const answer = await fetch(`${server.url}/openapi.json`);
  expect(answer.status).toBe(200);
  await answer.arrayBuffer();
});
