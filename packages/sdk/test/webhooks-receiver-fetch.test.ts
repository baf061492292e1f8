/**
 * `@ocs/sdk/webhooks/fetch` over real HTTP in Node: as a Hono route, and as a bare fetch
 * handler served by @hono/node-server (the shape Next.js, Deno, Bun and Workers call; those
 * runtimes are in webhooks-receiver-runtimes.test.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createFetchHandler, type FetchHandlerOptions } from '../src/webhooks/receivers/fetch.ts';
import { deliver, freshEvent, receiverContract, secret, type StartReceiver } from './support/receiver-contract.ts';

async function listen(fetchHandler: (request: Request) => Response | Promise<Response>) {
  const server = serve({ fetch: fetchHandler, port: 0, hostname: '127.0.0.1' }) as Server;
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/ocs`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const onHono = (options: FetchHandlerOptions) => {
  const handler = createFetchHandler(options);
  const app = new Hono();
  app.post('/webhooks/ocs', (c) => handler(c.req.raw));
  return listen(app.fetch);
};

describe('Hono', () => {
  receiverContract(onHono as StartReceiver);

  it('after c.req.json() read the body: 500 parsed_body, saying so', async () => {
    const onEvent = vi.fn();
    const handler = createFetchHandler({ secret, onEvent, onError: () => {} });
    const app = new Hono();
    app.post('/webhooks/ocs', async (c) => {
      await c.req.json();
      return handler(c.req.raw);
    });
    const { url, close } = await listen(app.fetch);
    try {
      const response = await deliver(url, freshEvent());
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        reason: 'parsed_body',
        message: expect.stringMatching(/read before this handler.*c\.req\.json\(\)/),
      });
      expect(onEvent).not.toHaveBeenCalled();
    } finally {
      await close();
    }
  });
});

describe('a bare fetch handler', () => {
  receiverContract(((options) => listen(createFetchHandler(options))) as StartReceiver);

  it('answers 405 to other methods, with Allow: POST', async () => {
    const { url, close } = await listen(createFetchHandler({ secret, onEvent: () => {}, onError: () => {} }));
    try {
      const response = await fetch(url, { method: 'PUT', body: '{}' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    } finally {
      await close();
    }
  });
});

describe('the body it reads', () => {
  it('answers 413 past maxBodyBytes (1 MiB by default), announced or streamed, reading no further', async () => {
    const onEvent = vi.fn();
    const handler = createFetchHandler({ secret, onEvent, onError: () => {}, maxBodyBytes: 1000 });
    const signed = { 'X-Signature-256': `sha256=${'0'.repeat(64)}` };
    const announced = await handler(
      new Request('https://receiver.test/hooks', { method: 'POST', headers: signed, body: 'x'.repeat(1001) }),
    );
    expect(announced.status).toBe(413);
    expect(await announced.json()).toMatchObject({ reason: 'body_too_large' });
    // Streamed without a Content-Length: counted while read, and the rest never pulled.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(400));
      },
    });
    const streamed = await handler(
      new Request('https://receiver.test/hooks', {
        method: 'POST',
        headers: signed,
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(10);
    // The default: 1 MiB.
    const large = await createFetchHandler({ secret, onEvent, onError: () => {} })(
      new Request('https://receiver.test/hooks', {
        method: 'POST',
        headers: signed,
        body: 'x'.repeat(1024 * 1024 + 1),
      }),
    );
    expect(large.status).toBe(413);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('refuses an unsigned delivery before reading its body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(400));
      },
    });
    const handler = createFetchHandler({ secret, onEvent: vi.fn(), onError: () => {} });
    const answer = await handler(
      new Request('https://receiver.test/hooks', { method: 'POST', body, duplex: 'half' } as RequestInit),
    );
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ reason: 'missing_signature' });
    // The stream's first pull happens on construction at most: nothing was read.
    expect(pulled).toBeLessThanOrEqual(1);
  });
});
