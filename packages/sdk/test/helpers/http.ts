/**
 * A real node:http server on a free loopback port for the client's tests: the handler
 * decides each answer, every request is recorded (method, URL, headers, body), and the
 * sockets that carried a request and are still open are counted, so that a test can check
 * that the client freed them.
 *
 * Only sockets that carried a request are counted: after an aborted request, Node 20's
 * undici opens a spare connection to the origin that never carries anything and waits in
 * its pool for the next request (nodejs/undici#5845); it is undici's, not a request left
 * open, and no client code can close it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach } from 'vitest';
import { createClient, type ClientOptions } from '../../src/index.ts';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The connection it came on. */
  socket: Socket;
}

export type Handler = (request: Received, response: ServerResponse, index: number) => void;

export interface TestServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The requests received, in order. */
  received: Received[];
  /** Sockets that carried a request and are open now. */
  openSockets(): number;
  /** Whether a socket is still open. */
  isOpen(socket: Socket): boolean;
  /** Every socket that carried a request. */
  sockets: Set<Socket>;
  close(): Promise<void>;
}

const started: TestServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

/** Starts a server for the current test (closed after it). */
export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const open = new Set<Socket>();
  const server = createServer((request, response) => {
    sockets.add(request.socket);
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const { method = '', url = '', headers, socket } = request;
      const entry = { method, url, headers, body, socket };
      received.push(entry);
      handler(entry, response, received.length - 1);
    });
  });
  const all = new Set<Socket>();
  server.on('connection', (socket) => {
    all.add(socket);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const testServer: TestServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    sockets,
    isOpen: (socket) => open.has(socket),
    openSockets: () => [...sockets].filter((socket) => open.has(socket)).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of all) socket.destroy();
        server.close(() => resolve());
      }),
  };
  started.push(testServer);
  return testServer;
}

/** Answers JSON. */
export const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));

/** A client of `server`. */
export const clientOf = (server: TestServer, options: ClientOptions = {}) =>
  createClient({ apiKey: 'ocs_test_0123456789', baseUrl: server.baseUrl, ...options });
