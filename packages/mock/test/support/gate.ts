/**
 * A gate in front of a server, for the tests that must act while a command is in the middle
 * of a request (Ctrl-C during `ocs trigger`): it passes every request on to the target, but
 * holds the first one that `holds` picks until the test opens the gate, and says when that
 * request has arrived.
 */
import { buffer } from 'node:stream/consumers';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Gate {
  /** The gate's base URL (with the target's path, e.g. `/v1`). */
  url: string;
  /** Resolves when the held request has arrived (it waits until `open()`). */
  reached: Promise<void>;
  /** Lets the held request (and any later one) through. */
  open(): void;
  close(): Promise<void>;
}

/** What `passOn` got back: the target's answer, its headers as Node's server writes them again. */
export interface PassedOn {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * Sends a request a test server received (its `body` already read) on to `upstream`'s
 * origin, and reads the answer: the headers a hop may not copy (host, connection, lengths,
 * encodings, since fetch decodes the body) are left to Node.
 */
export async function passOn(request: IncomingMessage, body: Buffer, upstream: URL): Promise<PassedOn> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers.set(name, value);
  }
  const answer = await fetch(new URL(request.url ?? '/', upstream.origin), {
    method: request.method,
    headers,
    body: body.length > 0 ? new Uint8Array(body) : undefined,
  });
  const back: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!['content-encoding', 'content-length', 'transfer-encoding'].includes(name)) back[name] = value;
  });
  return { status: answer.status, headers: back, body: Buffer.from(await answer.arrayBuffer()) };
}

export async function startGate(target: string, holds: (request: IncomingMessage) => boolean): Promise<Gate> {
  const upstream = new URL(target);
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  let held = false;
  const server = createServer((request, response) => {
    void (async () => {
      const body = await buffer(request);
      if (!held && holds(request)) {
        held = true;
        arrived();
        await open;
      }
      const answer = await passOn(request, body, upstream);
      response.writeHead(answer.status, answer.headers).end(answer.body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    reached,
    open: () => opened(),
    async close() {
      opened();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
