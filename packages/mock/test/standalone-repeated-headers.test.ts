/**
 * The standalone mock refuses a header the API reads once sent on two lines, as the
 * reference server's listener does: `Idempotency-Key` twice answers `400 VALIDATION_ERROR`
 * (node:http and Fetch join the lines into "a, b", itself a valid key, so only the
 * listener can tell), and `Authorization` twice `401 UNAUTHORIZED`.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 5 });
});
afterAll(() => server?.close());

/** One request over node:http, which sends an array value as one header line per item. */
function send(
  path: string,
  method: string,
  headers: OutgoingHttpHeaders,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}${path}`, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

it('Idempotency-Key on two lines: 400 VALIDATION_ERROR, nothing created', async () => {
  const before = (await send('/campaigns', 'GET', { Authorization: `Bearer ${server.apiKey}` })).body.total;
  const answer = await send(
    '/campaigns',
    'POST',
    { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': ['a', 'b'] },
    { name: 'Twice keyed' },
  );
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({
    success: false,
    error: 'VALIDATION_ERROR',
    details: { errors: [{ field: 'header.Idempotency-Key', message: 'must be given once', type: 'type' }] },
  });
  expect((await send('/campaigns', 'GET', { Authorization: `Bearer ${server.apiKey}` })).body.total).toBe(before);
});

it('one line holding "a, b" is one key, as on the server', async () => {
  const answer = await send(
    '/campaigns',
    'POST',
    { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'a, b' },
    { name: 'Comma key' },
  );
  expect(answer.status).toBe(201);
});

it('Authorization on two lines: 401 UNAUTHORIZED', async () => {
  const answer = await send('/campaigns', 'GET', {
    Authorization: [`Bearer ${server.apiKey}`, `Bearer ${server.apiKey}`],
  });
  expect(answer.status).toBe(401);
  expect(answer.body).toMatchObject({ error: 'UNAUTHORIZED' });
  expect(answer.body.message).toContain('sent 2 times');
});
