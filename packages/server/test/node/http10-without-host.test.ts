/**
 * An HTTP/1.0 request needs no `Host` (RFC 9112 section 3.2 requires it of HTTP/1.1 only):
 * it is served, and absolute URLs the service writes (a connect link's `url`) name the
 * address and port the request reached. An HTTP/1.1 request without `Host` is still refused
 * (`unservable-requests.test.ts`).
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostForHttp10 } from '../../src/node/http10-host.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { exchangeBytes, parseAnswer } from './raw-bytes.ts';

const store = createMemoryStore();
let server: RunningServer;
let apiKey: string;

beforeAll(async () => {
  apiKey = (await seedDemoOrganization(store, { name: 'HTTP/1.0' })).apiKey;
  server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
});
afterAll(async () => {
  await server?.close();
});

const json = (bytes: Buffer) => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;

it('serves an HTTP/1.0 request without Host, and names the address it reached in absolute URLs', async () => {
  const verified = parseAnswer(
    await exchangeBytes(
      server.url,
      Buffer.from(`GET /v1/auth/verify HTTP/1.0\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`),
    ),
  );
  expect([verified.status, json(verified.body).success]).toEqual([200, true]);

  const body = '{"platform":"email"}';
  const created = parseAnswer(
    await exchangeBytes(
      server.url,
      Buffer.from(
        `POST /v1/accounts/connect-link HTTP/1.0\r\nAuthorization: Bearer ${apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ),
    ),
  );
  expect(created.status).toBe(201);
  const url = String(json(created.body).url);
  expect(url.startsWith(`${server.url}/connect/cl_`)).toBe(true);
  // The link works: its page answers at that address.
  const page = await fetch(url);
  expect(page.status).toBe(200);
  await page.arrayBuffer();
});

it('names the address as a URL writes it: IPv6 in brackets, an IPv4-mapped address as IPv4', () => {
  const hostOf = (httpVersion: string, localAddress: string, host?: string) => {
    const request = {
      httpVersion,
      headers: host === undefined ? {} : { host },
      socket: { localAddress, localPort: 4010 },
    };
    hostForHttp10(request as unknown as IncomingMessage);
    return request.headers.host;
  };
  expect(hostOf('1.0', '::1')).toBe('[::1]:4010');
  expect(hostOf('1.0', '::ffff:127.0.0.1')).toBe('127.0.0.1:4010');
  expect(hostOf('1.0', '10.0.0.7')).toBe('10.0.0.7:4010');
  // A Host sent is kept; HTTP/1.1 gets none (and is refused).
  expect(hostOf('1.0', '10.0.0.7', 'api.example.com')).toBe('api.example.com');
  expect(hostOf('1.1', '10.0.0.7')).toBeUndefined();
});
