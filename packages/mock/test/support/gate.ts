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
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection' && name !== 'content-length') {
          headers.set(name, value);
        }
      }
      const answer = await fetch(new URL(request.url ?? '/', upstream.origin), {
        method: request.method,
        headers,
        body: body.length > 0 ? new Uint8Array(body) : undefined,
      });
      const back: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-encoding' && name !== 'content-length' && name !== 'transfer-encoding')
          back[name] = value;
      });
      response.writeHead(answer.status, back).end(Buffer.from(await answer.arrayBuffer()));
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
