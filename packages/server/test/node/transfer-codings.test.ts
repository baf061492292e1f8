/**
 * A request body sent with a transfer coding the server does not decode (`gzip, chunked`)
 * was handed to the application still encoded and read as if it were not; an HTTP/1.0
 * request has no transfer codings at all (RFC 9112 section 6.1). Both answer `400
 * VALIDATION_ERROR` (`malformed_http`) in the error body before anything is read or
 * written, and the connection closes; `chunked` alone is read as before.
 */
import { gzipSync } from 'node:zlib';
import { createSchemaValidator, loadBundledDocument } from '@ocs/openapi/support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { type ByteAnswer, exchangeBytes, parseAnswer } from './raw-bytes.ts';

const schemas = createSchemaValidator(loadBundledDocument());
const store = createMemoryStore();
let server: RunningServer;
let apiKey: string;

beforeAll(async () => {
  apiKey = (await seedDemoOrganization(store, { name: 'Transfer codings' })).apiKey;
  server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
});
afterAll(async () => {
  await server?.close();
});

/** `POST /v1/campaigns` creating `name`, its body framed by `transferEncoding` (chunked, one chunk). */
function createCampaign(name: string, transferEncoding: string, options: { version?: string; gzip?: boolean } = {}) {
  const json = Buffer.from(JSON.stringify({ name }));
  const body = options.gzip ? gzipSync(json) : json;
  return Buffer.concat([
    Buffer.from(
      `POST /v1/campaigns HTTP/${options.version ?? '1.1'}\r\nHost: x\r\nConnection: close\r\n` +
        `Authorization: Bearer ${apiKey}\r\nX-Request-ID: coding-test\r\nContent-Type: application/json\r\n` +
        `Transfer-Encoding: ${transferEncoding}\r\n\r\n${body.length.toString(16)}\r\n`,
    ),
    body,
    Buffer.from('\r\n0\r\n\r\n'),
  ]);
}

async function campaignNames(): Promise<string[]> {
  const listed = await fetch(`${server.url}/v1/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } });
  return ((await listed.json()) as { campaigns: Array<{ name: string }> }).campaigns.map((c) => c.name);
}

function expectRefused(answer: ByteAnswer, problem: RegExp): void {
  const body = JSON.parse(answer.body.toString('utf8')) as {
    error: string;
    request_id: string;
    details: { errors: Array<{ field: string; type: string; message: string }> };
  };
  expect([answer.status, body.error, body.request_id]).toEqual([400, 'VALIDATION_ERROR', 'coding-test']);
  expect(body.details.errors).toHaveLength(1);
  expect(body.details.errors[0]).toMatchObject({ field: 'request', type: 'malformed_http' });
  expect(body.details.errors[0]?.message).toMatch(problem);
  expect(answer.headers.get('x-request-id')).toBe('coding-test');
  expect(answer.headers.get('connection')).toBe('close');
  expect(answer.headers.get('ratelimit-remaining')).toBe(answer.headers.get('ratelimit-limit'));
  expect(schemas.validate('#/components/schemas/ErrorBody', body).errors).toEqual([]);
}

it('refuses a transfer coding other than chunked, compressed or not, and creates nothing; chunked alone is read', async () => {
  const sent = [
    createCampaign('Gzipped', 'gzip, chunked', { gzip: true }),
    // Said to be compressed and not: read as it came, it was a valid body (a 201).
    createCampaign('Said gzipped', 'gzip, chunked'),
    createCampaign('Two lines', 'gzip\r\nTransfer-Encoding: chunked'),
    createCampaign('Identity', 'identity, chunked'),
  ];
  for (const request of sent) {
    expectRefused(
      parseAnswer(await exchangeBytes(server.url, request)),
      /Transfer-Encoding "gzip, chunked"|only chunked/,
    );
  }
  const names = await campaignNames();
  for (const name of ['Gzipped', 'Said gzipped', 'Two lines', 'Identity']) expect(names).not.toContain(name);
  // The coding's name in any case.
  const chunked = parseAnswer(await exchangeBytes(server.url, createCampaign('Chunked', 'Chunked')));
  expect(chunked.status).toBe(201);
  expect(await campaignNames()).toContain('Chunked');
});

it('refuses Transfer-Encoding in an HTTP/1.0 request', async () => {
  const answer = parseAnswer(
    await exchangeBytes(server.url, createCampaign('Old chunks', 'chunked', { version: '1.0' })),
  );
  expectRefused(answer, /HTTP\/1\.0/);
  expect(await campaignNames()).not.toContain('Old chunks');
});
