/**
 * A client that half-closes its socket after sending its request (a shutdown of its writing
 * side: HTTP/1.0-style clients, `nc -N`, some proxies) gets its answer from `ocs-mock`, as
 * from the reference server: with no scenario, under `latency`, and for a write. Before, the
 * mock's listener ended the socket at the client's end (so that a `hang` would end): a
 * request under latency was never answered, nor one answered a little late (the first after
 * the key cache was emptied), found by an attack (2026-11-29). A `hang` still ends when its
 * client leaves, by half-closing or by closing.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;
let port: number;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 13 });
  port = Number(new URL(server.url).port);
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

interface Exchange {
  /** Everything the server sent until the socket closed. */
  received: string;
  /** The socket's error, if it ended with one (a reset: ECONNRESET). */
  error: string | undefined;
}

const kept = 'the server kept the socket 5 s';

/** Opens a socket to the mock; `exchange` resolves once the server has closed it. */
function open(): { socket: Socket; exchange: Promise<Exchange> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let error: string | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  // A server that kept the socket would hold the test until its timeout: ended here, and seen.
  socket.setTimeout(5000, () => socket.destroy(new Error(kept)));
  const exchange = new Promise<Exchange>((resolve) => socket.on('close', () => resolve({ received, error })));
  return { socket, exchange };
}

/** Writes `request`, half-closes (as `nc -N` does), and reads until the server closes. */
async function halfClosed(request: string): Promise<Exchange> {
  const { socket, exchange } = open();
  socket.write(request);
  socket.end();
  return exchange;
}

const get = (path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.apiKey}\r\nConnection: close\r\n\r\n`;
const post = (path: string, body: unknown) => {
  const text = JSON.stringify(body);
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.apiKey}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
  );
};
const statusLine = (exchange: Exchange) => exchange.received.split('\r\n')[0];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function journalSettled(operationId: Parameters<MockServer['requests']['last']>[0]) {
  let entry = server.requests.last(operationId);
  for (let i = 0; i < 100 && entry?.durationMs == null; i++) {
    await sleep(20);
    entry = server.requests.last(operationId);
  }
  return entry;
}

describe('a client that half-closes after its request', () => {
  it('is answered every time with no scenario, the key cache emptied before each request', async () => {
    // `reset()` empties the key cache: the key is looked up again, an answer a little late
    // (the first after the mock sat idle, in the attack), which the old listener dropped.
    const answers: Array<string | undefined> = [];
    for (let i = 0; i < 50; i++) {
      server.reset();
      answers.push(statusLine(await halfClosed(get('/v1/auth/verify'))));
    }
    expect(answers).toEqual(Array.from({ length: 50 }, () => 'HTTP/1.1 200 OK'));
  });

  it('is answered under a latency scenario, and its write is made and journaled', async () => {
    server.scenarios.latency(50);
    const exchange = await halfClosed(post('/v1/campaigns', { name: 'Half-closed client' }));
    expect(statusLine(exchange)).toBe('HTTP/1.1 201 Created');
    const created = JSON.parse(exchange.received.slice(exchange.received.indexOf('\r\n\r\n') + 4)) as {
      campaign_id: string;
    };
    expect(server.requests.last('createCampaign')).toMatchObject({ fault: null, response: { status: 201 } });
    server.scenarios.latency(0);
    const check = await halfClosed(get(`/v1/campaigns/${created.campaign_id}`));
    expect(statusLine(check)).toBe('HTTP/1.1 200 OK');
    expect(check.received).toContain('"Half-closed client"');
  });

  it('is answered with latency on a GET too', async () => {
    server.scenarios.latency(30, { operations: ['listCampaigns'] });
    const exchange = await halfClosed(get('/v1/campaigns'));
    expect(statusLine(exchange)).toBe('HTTP/1.1 200 OK');
    expect(exchange.received).toContain('"campaigns":');
  });
});

describe('a hang still ends when its client leaves', () => {
  it('a client that half-closes: the hang ends at once and its journal entry completes', async () => {
    server.scenarios.hang({ operations: ['getCampaign'] });
    const id = server.data.campaigns[0]?.id ?? '';
    const exchange = await halfClosed(get(`/v1/campaigns/${id}`));
    // No answer, and the server let the socket go (with a reset), before the client's timeout.
    expect(exchange.received).toBe('');
    expect(exchange.error).not.toBe(kept);
    expect(await journalSettled('getCampaign')).toMatchObject({
      fault: 'hang',
      response: null,
      durationMs: expect.any(Number),
    });
  });

  it('a client that closes its socket while the request hangs: the entry completes, the server drops the socket', async () => {
    server.scenarios.hang({ operations: ['listCampaigns'] });
    const { socket, exchange } = open();
    socket.write(get('/v1/campaigns'));
    for (let i = 0; i < 100 && server.requests.last('listCampaigns')?.fault !== 'hang'; i++) await sleep(10);
    expect(server.requests.last('listCampaigns')).toMatchObject({ fault: 'hang', durationMs: null });
    // The client gives up: a FIN, which is all the server sees of a close.
    socket.destroy();
    await exchange;
    expect(await journalSettled('listCampaigns')).toMatchObject({
      fault: 'hang',
      response: null,
      durationMs: expect.any(Number),
    });
  });
});

describe('latency and a client that leaves', () => {
  it('a client that resets its connection during latency abandons the request: nothing is written', async () => {
    server.scenarios.latency(300, { operations: ['createCampaign'] });
    const { socket, exchange } = open();
    socket.write(post('/v1/campaigns', { name: 'Reset during latency' }));
    for (let i = 0; i < 100 && server.requests.last('createCampaign') === undefined; i++) await sleep(10);
    socket.resetAndDestroy();
    await exchange;
    expect(await journalSettled('createCampaign')).toMatchObject({ response: null, fault: null });
    server.scenarios.latency(0);
    // Past the latency it would have ended in: the campaign was never made.
    await sleep(400);
    const list = await halfClosed(get('/v1/campaigns?limit=100'));
    expect(statusLine(list)).toBe('HTTP/1.1 200 OK');
    expect(list.received).not.toContain('Reset during latency');
  });
});
