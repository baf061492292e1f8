/**
 * A client that closes its connection before sending the body it announced is not a failure
 * of the server: the request is an incomplete HTTP message, logged as a 400 at `info` (its
 * answer reaches no one), never as a 500 with an `error` line and a stack.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeLogger } from '../../src/node/logger.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const written: string[] = [];
const lines = () => written.map((line) => JSON.parse(line) as Record<string, unknown>);
let server: RunningServer;
let apiKey: string;

beforeAll(async () => {
  const store = createMemoryStore();
  ({ apiKey } = await seedDemoOrganization(store));
  const logger = createNodeLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
  server = await serve({ store, port: 0, host: '127.0.0.1', logger });
});
afterAll(async () => {
  await server?.close();
});

it('logs a body cut off by the client as an incomplete request, not as a server failure', async () => {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    'POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nX-Request-ID: cut-off-body\r\n' +
      `Authorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
  );
  // Long enough for the server to start reading the body, then the client is gone.
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
  const deadline = Date.now() + 10_000;
  while (!lines().some((line) => line.request_id === 'cut-off-body' && line.message === 'request')) {
    if (Date.now() > deadline) throw new Error(`no access line for the request:\n${written.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const ofRequest = lines().filter((line) => line.request_id === 'cut-off-body');
  expect(ofRequest.map(({ level, message, status }) => ({ level, message, status }))).toEqual([
    { level: 'info', message: 'request', status: 400 },
  ]);
  expect(lines().filter((line) => line.level === 'error')).toEqual([]);
});
