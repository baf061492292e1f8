/**
 * A client that half-closes its connection after sending a request (shutdown of its writing
 * side) gets the answer, and a write it asked for is answered: Node's default ends the socket
 * at the client's end and dropped the answer of a create it had committed.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import type { Store } from '../../src/store/types.ts';

let server: RunningServer;
let store: Store;
let apiKey: string;
let organizationId: string;

beforeAll(async () => {
  store = createMemoryStore();
  ({ apiKey, organizationId } = await seedDemoOrganization(store));
  server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
});
afterAll(async () => {
  await server?.close();
});

/** Sends `request`, half-closes, and reads everything the server sends until it closes. */
async function halfClosed(request: string): Promise<string> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.end(request);
  await new Promise<void>((resolve, reject) => {
    socket.once('close', () => resolve());
    socket.once('error', reject);
  });
  return received;
}

it('answers a create sent by a client that then half-closed, and the lead it answers for exists', async () => {
  const body = JSON.stringify({ email: 'half.closed@example.com' });
  const answer = await halfClosed(
    'POST /v1/leads HTTP/1.1\r\nHost: x\r\nConnection: close\r\n' +
      `Authorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  expect(answer).toMatch(/^HTTP\/1\.1 201 /);
  const created = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { lead: { id: string } };
  expect((await store.leads.get(organizationId, created.lead.id))?.email).toBe('half.closed@example.com');
});

it('answers a GET sent by a client that then half-closed', async () => {
  const answer = await halfClosed(`GET /v1/campaigns HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n\r\n`);
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  expect(answer).toMatch(/"campaigns":/);
});
