/**
 * A webhook receiver on 127.0.0.1 (port 0) for the transport tests: it records every
 * connection and request, and answers with the handler a test gives it. The only real
 * socket these tests open.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  /** Path and query, as the request line carried them. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Answers one request; `body` is the complete request body. */
export type ReceiverHandler = (request: ReceivedRequest, response: http.ServerResponse) => void;

export interface LoopbackReceiver {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: ReceivedRequest[];
  /** TCP connections accepted, whatever came over them (a TLS hello included). */
  connections: number;
  /** Resolves once every connection accepted so far has closed. */
  allConnectionsClosed(): Promise<void>;
  close(): Promise<void>;
}

const answerNoContent: ReceiverHandler = (_request, response) => {
  response.writeHead(204).end();
};

export async function startLoopbackReceiver(handler: ReceiverHandler = answerNoContent): Promise<LoopbackReceiver> {
  const closed: Array<Promise<void>> = [];
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      receiver.requests.push(request);
      handler(request, response);
    });
  });
  server.on('connection', (socket: Socket) => {
    receiver.connections += 1;
    closed.push(new Promise((done) => socket.on('close', () => done())));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const receiver: LoopbackReceiver = {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests: [],
    connections: 0,
    allConnectionsClosed: async () => {
      await Promise.all(closed);
    },
    close: () =>
      new Promise((done, fail) => {
        // Receivers that never answer hold their connections open: end them, or close waits forever.
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
  return receiver;
}
