/**
 * The request log over real HTTP, with the Node server's pino logger writing JSON lines:
 * one access line per request, of one shape, whatever answered it (an operation, an
 * unrouted path's 404, the documents, `/docs`), and a failing handler's error line carrying
 * the same request ID as its access line and as the answer's `X-Request-ID`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createNodeLogger } from '../../src/node/logger.ts';
import { serverDocs } from '../../src/node/docs-renderer.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { handlers } from '../../src/routes/index.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

type Line = Record<string, unknown>;

/** A pino logger writing JSON lines into an array, as it writes them to standard output. */
function capturedLogger() {
  const written: string[] = [];
  const logger = createNodeLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Line) };
}

/** Fetches and reads the whole answer, so that its access line has been written. */
async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return response;
}

/** pino writes the level and the time first, the message last. */
const accessFields = [
  'level',
  'time',
  'request_id',
  'method',
  'path',
  'operation_id',
  'status',
  'duration_ms',
  'organization_id',
  'api_key_id',
  'message',
];

describe('the reference server (serve)', () => {
  const log = capturedLogger();
  let server: RunningServer;
  let apiKey: string;

  beforeAll(async () => {
    const store = createMemoryStore();
    ({ apiKey } = await seedDemoOrganization(store));
    server = await serve({ store, port: 0, host: '127.0.0.1', logger: log.logger });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes one access line of the same shape for every request: operations, unrouted paths, documents, /docs', async () => {
    const requests: Array<[string, Record<string, string>, number, string | null]> = [
      ['/v1/campaigns', { Authorization: `Bearer ${apiKey}`, 'X-Request-ID': 'log-routed' }, 200, 'listCampaigns'],
      ['/v1/no-such-path', { 'X-Request-ID': 'log-unrouted' }, 404, null],
      ['/nowhere?email=lead@example.com', { 'X-Request-ID': 'log-outside' }, 404, null],
      ['/openapi.json', { 'X-Request-ID': 'log-document' }, 200, null],
      ['/docs', { 'X-Request-ID': 'log-docs' }, 200, null],
      ['/docs/redoc.standalone.js', { 'X-Request-ID': 'log-renderer' }, 200, null],
    ];
    for (const [path, headers, status] of requests) {
      const answer = await get(`${server.url}${path}`, headers);
      expect(answer.status, path).toBe(status);
      // Each answer names its request ID, so that a caller can quote the line.
      expect(answer.headers.get('x-request-id'), path).toBe(headers['X-Request-ID']);
    }

    const access = log.lines().filter((line) => line.message === 'request');
    expect(access).toHaveLength(requests.length);
    for (const [i, [path, headers, status, operationId]] of requests.entries()) {
      const line = access[i] ?? {};
      expect(Object.keys(line), path).toEqual(accessFields);
      expect(line, path).toMatchObject({
        level: 'info',
        request_id: headers['X-Request-ID'],
        method: 'GET',
        // The path only: the query may carry a lead's email. A word no path of the server has is redacted.
        path: (path.split('?')[0] ?? '').replace(/^\/v1\/no-such-path$|^\/nowhere$/, (unrouted) =>
          unrouted.startsWith('/v1') ? '/v1/[redacted]' : '/[redacted]',
        ),
        operation_id: operationId,
        status,
        duration_ms: expect.any(Number) as unknown,
      });
    }
    expect(JSON.stringify(access)).not.toContain('lead@example.com');
  });

  it("logs a segment that is neither a word of the server's paths nor an ID as [redacted]: an email, a profile URL", async () => {
    const before = log.lines().length;
    const auth = { Authorization: `Bearer ${apiKey}` };
    const requests: Array<[string, string]> = [
      ['/v1/leads/maya.patel@acme.example', '/v1/leads/[redacted]'],
      ['/v1/leads/maya.patel%40acme.example', '/v1/leads/[redacted]'],
      ['/v1/campaigns/Maya%20Patel/analysis', '/v1/campaigns/[redacted]/analysis'],
      ['/nowhere/maya@acme.example/x', '/[redacted]/[redacted]/[redacted]'],
      ['/v1/leads/https:/www.linkedin.com/in/maya-patel', '/v1/leads/[redacted]/[redacted]/[redacted]/[redacted]'],
      ['/connect/maya@acme.example', '/connect/[redacted]'],
      ['/v1/leads/0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f90', '/v1/leads/0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f90'],
      [
        '/v1/campaigns/0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f90/sequence/steps/3',
        '/v1/campaigns/0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f90/sequence/steps/3',
      ],
      ['/docs/', '/docs/'],
    ];
    for (const [path] of requests) {
      const { status } = await get(`${server.url}${path}`, auth);
      expect([200, 400, 404], path).toContain(status);
    }
    const paths = log
      .lines()
      .slice(before)
      .filter((line) => line.message === 'request')
      .map((line) => line.path);
    expect(paths).toEqual(requests.map(([, logged]) => logged));
    expect(JSON.stringify(log.lines())).not.toMatch(/maya|patel/i);
  });

  it('logs a HEAD of /docs and a POST to it (no such route) too', async () => {
    const before = log.lines().length;
    expect((await fetch(`${server.url}/docs`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${server.url}/docs`, { method: 'POST' })).status).toBe(404);
    const added = log.lines().slice(before);
    expect(added.map((line) => [line.method, line.path, line.status, line.operation_id])).toEqual([
      ['HEAD', '/docs', 200, null],
      ['POST', '/docs', 404, null],
    ]);
  });
});

describe('a handler that throws, over HTTP', () => {
  const log = capturedLogger();
  let listener: Server;
  let base: string;
  let apiKey: string;

  beforeAll(async () => {
    const store = createMemoryStore();
    ({ apiKey } = await seedDemoOrganization(store));
    const app = createApp({
      store,
      logger: log.logger,
      docs: serverDocs,
      handlers: {
        ...handlers,
        listCampaigns: () => Promise.reject(new Error('the store fell over (test)')),
      },
    });
    listener = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    listener?.closeAllConnections();
    await new Promise((resolve) => listener?.close(resolve));
  });

  it("writes the error line with the access line's request ID, the one the answer names", async () => {
    // No X-Request-ID sent: the server makes one, and every line of the request carries it.
    const answer = await fetch(`${base}/v1/campaigns`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(answer.status).toBe(500);
    const body = (await answer.json()) as { error: string; request_id: string };
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_[0-9a-f]{24}$/);
    expect(body).toMatchObject({ error: 'INTERNAL_ERROR', request_id: requestId });
    // The detail is in the log only.
    expect(JSON.stringify(body)).not.toContain('fell over');

    const lines = log.lines();
    const failure = lines.find((line) => line.message === 'request failed');
    const access = lines.find((line) => line.message === 'request');
    expect(failure).toMatchObject({
      level: 'error',
      request_id: requestId,
      operation_id: 'listCampaigns',
      error: expect.stringContaining('the store fell over (test)') as unknown,
    });
    expect(access).toMatchObject({ level: 'error', request_id: requestId, status: 500, operation_id: 'listCampaigns' });
    expect(lines.filter((line) => line.request_id === requestId)).toHaveLength(2);
  });
});
