/**
 * A header the API reads once, sent on two lines, on the real Node listener: Node and Fetch
 * `Headers` join the lines ("a, b"), which is also a valid single `Idempotency-Key`, so only
 * the listener's record of the lines (`http/header-lines.ts`) tells them apart. Two
 * `Idempotency-Key` lines answer `400 VALIDATION_ERROR` before any key is claimed or anything
 * is written; two `Authorization` lines are a malformed header, `401 UNAUTHORIZED`; one line
 * holding "a, b" is one key, as before. The same on every store.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { createSchemaValidator, loadBundledDocument } from '@ocs/openapi/support';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createApiKey, createOrganization } from '../../src/seed/organizations.ts';
import { describeBackends } from '../support/backends.ts';

const schemas = createSchemaValidator(loadBundledDocument());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** One request over node:http, which sends an array value as one header line per item. */
function send(url: string, method: string, headers: OutgoingHttpHeaders, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describeBackends('a header the API reads once, sent twice', (store) => {
  let server: RunningServer;
  let key: string;
  beforeAll(async () => {
    server = await serve({ store: store(), port: 0, host: '127.0.0.1', quiet: true, authCacheTtlMs: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    const organization = await createOrganization(store(), {
      name: 'Repeats',
      members: [{ email: 'owner@example.com', name: 'Owner', role: 'owner' }],
    });
    ({ key } = await createApiKey(store(), { organizationId: organization.id }));
  });

  const json = { 'Content-Type': 'application/json' };
  const campaigns = async () => {
    const listed = await send(`${server.url}/v1/campaigns`, 'GET', { Authorization: `Bearer ${key}` });
    return listed.body.total;
  };

  it.each([
    ['two keys', ['key-a', 'key-b']],
    ['the same key twice', ['key-a', 'key-a']],
  ])('Idempotency-Key on two lines (%s) answers 400 and creates nothing', async (_, lines) => {
    const answer = await send(
      `${server.url}/v1/campaigns`,
      'POST',
      { ...json, Authorization: `Bearer ${key}`, 'Idempotency-Key': lines },
      { name: 'Twice keyed' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      success: false,
      error: 'VALIDATION_ERROR',
      details: { errors: [{ field: 'header.Idempotency-Key', message: 'must be given once', type: 'type' }] },
    });
    expect(answer.body.request_id).toBe(answer.headers['x-request-id']);
    expect(schemas.validate('#/components/schemas/ErrorBody', answer.body).errors).toEqual([]);
    expect(await campaigns()).toBe(0);
  });

  it('refuses it on the import too (POST /v1/leads declares the header)', async () => {
    const answer = await send(
      `${server.url}/v1/leads`,
      'POST',
      { ...json, Authorization: `Bearer ${key}`, 'Idempotency-Key': ['import-1', 'import-2'] },
      { email: 'maya@example.com' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: { errors: [{ field: 'header.Idempotency-Key', message: 'must be given once' }] },
    });
  });

  it('one line holding "a, b" is one key: created once, then replayed', async () => {
    const headers = { ...json, Authorization: `Bearer ${key}`, 'Idempotency-Key': 'key-a, key-b' };
    const first = await send(`${server.url}/v1/campaigns`, 'POST', headers, { name: 'Comma key' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-key']).toBe('key-a, key-b');
    const again = await send(`${server.url}/v1/campaigns`, 'POST', headers, { name: 'Comma key' });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await campaigns()).toBe(1);
  });

  it('Authorization on two lines is malformed: 401, even when both hold the valid key', async () => {
    const answer = await send(`${server.url}/v1/campaigns`, 'GET', {
      Authorization: [`Bearer ${key}`, `Bearer ${key}`],
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'UNAUTHORIZED' });
    expect(answer.body.message).toContain('sent 2 times');
    expect(schemas.validate('#/components/schemas/ErrorBody', answer.body).errors).toEqual([]);
  });

  it('X-Request-ID on two lines is ignored, as any unacceptable value: a new ID, and the request served', async () => {
    const answer = await send(`${server.url}/v1/campaigns`, 'GET', {
      Authorization: `Bearer ${key}`,
      'X-Request-ID': ['trace-1', 'trace-2'],
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toMatch(/^req_/);
  });
});
