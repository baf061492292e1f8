/**
 * ocs-mock answers a client that half-closes after sending its request, as the reference
 * server does: Node's default dropped the answer of a create it had made.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(async () => {
  await server?.close();
});

it('answers a create sent by a client that then half-closed', async () => {
  // The answer comes after the client's end has arrived.
  server.scenarios.latency(50);
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const body = JSON.stringify({ name: 'Half closed' });
  socket.end(
    'POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
      `Authorization: Bearer ${server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  expect(received).toMatch(/^HTTP\/1\.1 201 /);
  server.scenarios.clear();
});
