/**
 * CORS on the answers the Node listener writes itself, before the application: headers too
 * large (431) and an unsupported `Expect` (400) carry the CORS headers for an allowed Origin,
 * so that a page can read why its request failed; a path outside `/v1` gets none.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const page = 'http://localhost:5173';
let server: RunningServer;

beforeAll(async () => {
  server = await serve({
    store: createMemoryStore(),
    port: 0,
    host: '127.0.0.1',
    quiet: true,
    cors: { origins: [page] },
  });
});
afterAll(async () => {
  await server?.close();
});

/** Sends raw bytes and reads the answer's status and headers until the server closes the connection. */
function rawExchange(bytes: string): Promise<{ status: number; headers: Headers }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      // An answer to Expect keeps the connection open until the body is sent: read its head only.
      if (answer.includes('\r\n\r\n') && /^HTTP\/1\.1 400/.test(answer)) socket.destroy();
    });
    socket.on('close', () => {
      const [statusLine = '', ...lines] = (answer.split('\r\n\r\n')[0] ?? '').split('\r\n');
      const headers = new Headers();
      for (const line of lines)
        headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim());
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
    socket.on('error', reject);
  });
}

const bigHeader = `X-Padding: ${'a'.repeat(20_000)}\r\n`;

it('puts the CORS headers on a 431 under /v1 for an allowed Origin', async () => {
  const answer = await rawExchange(`GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nOrigin: ${page}\r\n${bigHeader}\r\n`);
  expect(answer.status).toBe(431);
  expect(answer.headers.get('access-control-allow-origin')).toBe(page);
  expect(answer.headers.get('access-control-expose-headers')).toContain('X-Request-ID');
});

it('puts none on a 431 for another origin, or outside /v1', async () => {
  const other = await rawExchange(
    `GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nOrigin: https://evil.example\r\n${bigHeader}\r\n`,
  );
  expect(other.status).toBe(431);
  expect(other.headers.has('access-control-allow-origin')).toBe(false);
  expect(other.headers.get('vary')).toBe('Origin');
  const outside = await rawExchange(`GET /openapi.json HTTP/1.1\r\nHost: x\r\nOrigin: ${page}\r\n${bigHeader}\r\n`);
  expect(outside.status).toBe(431);
  expect(outside.headers.has('access-control-allow-origin')).toBe(false);
});

it('puts the CORS headers on the 400 answering an unsupported Expect', async () => {
  const answer = await rawExchange(
    `POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nOrigin: ${page}\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n`,
  );
  expect(answer.status).toBe(400);
  expect(answer.headers.get('access-control-allow-origin')).toBe(page);
});
