/**
 * Requests Node's HTTP parser refuses answer in the API's error body with an X-Request-ID,
 * on the real Node listener (docs/decisions/0005-bad-input.md): a request line and headers
 * over Node's limit (431), malformed HTTP (400).
 */
import { connect } from 'node:net';
import { createSchemaValidator, loadBundledDocument } from '@ocs/openapi/support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { checkAgainstDocument } from '../support/api.ts';

const schemas = createSchemaValidator(loadBundledDocument());
let server: RunningServer;
const store = createMemoryStore();
let apiKey: string;

beforeAll(async () => {
  apiKey = (await seedDemoOrganization(store, { name: 'Pipelining' })).apiKey;
  server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
});
afterAll(async () => {
  await server?.close();
});

/** Sends raw bytes and reads everything until the server closes the connection. */
function rawExchange(bytes: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string): { status: number; headers: Headers; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = new Headers();
  for (const line of lines) headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

it('answers two 10,000-character path IDs with 431 in the error body, as the document says', async () => {
  const id = 'a'.repeat(10_000);
  const path = `/v1/campaigns/${id}/ai-fields/${id}`;
  const response = await fetch(`${server.url}${path}`, { method: 'PATCH', headers: { Authorization: 'Bearer x' } });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status).toBe(431);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(body).toMatchObject({ success: false, error: 'REQUEST_HEADERS_TOO_LARGE' });
  expect(body.request_id).toBe(response.headers.get('x-request-id'));
  expect(response.headers.get('ratelimit-remaining')).toBe(response.headers.get('ratelimit-limit'));
  checkAgainstDocument('PATCH', path, response, body);
});

it("uses the caller's X-Request-ID when it can be read, and marks a deprecated operation", async () => {
  const id = 'b'.repeat(20_000);
  const path = `/v1/campaigns/${id}/webhook/deactivate`;
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'X-Request-ID': 'trace-431', 'Content-Type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json()) as Record<string, unknown>;
  expect([response.status, body.error, body.request_id]).toEqual([431, 'REQUEST_HEADERS_TOO_LARGE', 'trace-431']);
  expect(response.headers.get('deprecation')).toBe('true');
  // The successor's template, never the 20,000 characters the caller sent.
  expect(response.headers.get('link')).toBe(
    '</v1/campaigns/{campaign_id}/webhooks/{webhook_id}>; rel="successor-version"',
  );
  checkAgainstDocument('POST', path, response, body);
});

it('answers oversized headers on a known path with 431 too', async () => {
  const raw = await rawExchange(
    `GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nX-Request-ID: big-headers\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`,
  );
  const answer = parseRaw(raw);
  expect([answer.status, (answer.body as { error: string }).error]).toEqual([431, 'REQUEST_HEADERS_TOO_LARGE']);
  expect(answer.headers.get('x-request-id')).toBe('big-headers');
  expect(answer.headers.get('connection')).toBe('close');
  expect(schemas.validate('#/components/schemas/ErrorBody', answer.body).errors).toEqual([]);
});

it('answers malformed HTTP with 400 VALIDATION_ERROR in the error body, with a request ID', async () => {
  for (const bytes of [
    'GARBAGE\r\n\r\n',
    'GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n',
    'POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
  ]) {
    const answer = parseRaw(await rawExchange(bytes));
    const body = answer.body as { error: string; request_id: string; details: { errors: Array<{ type: string }> } };
    expect([answer.status, body.error], JSON.stringify(bytes)).toEqual([400, 'VALIDATION_ERROR']);
    expect(body.details.errors.map((e) => e.type)).toEqual(['malformed_http']);
    expect(answer.headers.get('x-request-id')).toBe(body.request_id);
    expect(answer.headers.get('content-length')).toBe(String(JSON.stringify(body).length));
    expect(schemas.validate('#/components/schemas/ErrorBody', body).errors).toEqual([]);
  }
});

it('answers a write pipelined before malformed bytes first, whole, then refuses the bytes', async () => {
  const body = '{"name":"Pipelined before garbage"}';
  const raw = await rawExchange(
    `POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nX-Request-ID: first-one\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}GARBAGE\r\n\r\n`,
  );
  // Two answers on the connection, in order: the write's 201, then the refusal (right after
  // the 201's body, which ends with no line break).
  const answers = [...raw.matchAll(/HTTP\/1\.1 (\d{3}) [A-Za-z ]+\r\n/g)];
  expect(answers.map((match) => Number(match[1]))).toEqual([201, 400]);
  const refusal = parseRaw(raw.slice(answers[1]?.index));
  expect((refusal.body as { error: string }).error).toBe('VALIDATION_ERROR');
  // Nothing of the earlier request is taken for the refused one's (its request ID).
  expect(refusal.headers.get('x-request-id')).not.toBe('first-one');
  const listed = await fetch(`${server.url}/v1/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } });
  const names = ((await listed.json()) as { campaigns: Array<{ name: string }> }).campaigns.map((c) => c.name);
  expect(names).toContain('Pipelined before garbage');
});

it('keeps serving ordinary requests', async () => {
  const response = await fetch(`${server.url}/v1/auth/verify`);
  const body = await response.json();
  expect(response.status).toBe(401);
  checkAgainstDocument('GET', '/v1/auth/verify', response, body);
});
