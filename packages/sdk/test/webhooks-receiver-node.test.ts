/**
 * `@ocs/sdk/webhooks/node` over real HTTP: on bare `node:http` (the stream read by the
 * handler) and on Express 5 with each body parser a route may have: none, `express.raw()`,
 * `express.text()`, `express.json()` with a `verify` hook keeping `req.rawBody`, and
 * `express.json()` alone, which is refused with 500 `parsed_body` saying what to change.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it, vi } from 'vitest';
import { createNodeHandler, type NodeHandlerOptions } from '../src/webhooks/receivers/node.ts';
import { sign } from '../src/webhooks/node.ts';
import { ProspectResponseEvent as eventSchema } from '../src/zod.ts';
import {
  deliver,
  freshEvent,
  post,
  receiverContract,
  secret,
  type StartReceiver,
} from './support/receiver-contract.ts';

/** Listens on 127.0.0.1:0; resolves with the URL of `path` and a close that ends open sockets. */
async function listen(server: Server, path = '/webhooks/ocs') {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const onNodeHttp = (options: NodeHandlerOptions) => listen(createServer(createNodeHandler(options)));

/** An Express 5 app with `parser` (if any) on the receiver's route. */
const onExpress = (options: NodeHandlerOptions, parser?: express.RequestHandler) => {
  const app = express();
  const handler = createNodeHandler(options);
  if (parser) app.post('/webhooks/ocs', parser, handler);
  else app.post('/webhooks/ocs', handler);
  return listen(createServer(app));
};

describe('node:http', () => {
  receiverContract(onNodeHttp as StartReceiver);

  it('answers 405 to other methods, with Allow: POST', async () => {
    const { url, close } = await onNodeHttp({ secret, onEvent: () => {} });
    try {
      const response = await fetch(url);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ reason: 'method_not_allowed' });
    } finally {
      await close();
    }
  });

  it('answers 413 past maxBodyBytes, announced or streamed, without calling onEvent', async () => {
    const onEvent = vi.fn();
    const { url, close } = await onNodeHttp({ secret, onEvent, onError: () => {}, maxBodyBytes: 1000 });
    try {
      const announced = await post(url, 'x'.repeat(1001), 'sha256=00');
      expect(announced.status).toBe(413);
      expect(await announced.json()).toMatchObject({ reason: 'body_too_large' });
      // Chunked, without a Content-Length: counted while read.
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode('y'.repeat(400)));
          controller.close();
        },
      });
      const streamed = await fetch(url, {
        method: 'POST',
        body: chunks,
        duplex: 'half',
        headers: { 'X-Signature-256': 'sha256=00' },
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(onEvent).not.toHaveBeenCalled();
      // Under the limit, the body is read and verified (unsigned here: 401).
      expect((await post(url, '{}')).status).toBe(401);
    } finally {
      await close();
    }
  });

  it('logs 5xx refusals with console.error when no onError is given, and not 4xx', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { url, close } = await onNodeHttp({
      secret,
      onEvent: () => {
        throw new Error('queue full');
      },
    });
    try {
      expect((await post(url, '{}')).status).toBe(401);
      expect(log).not.toHaveBeenCalled();
      expect((await deliver(url, freshEvent())).status).toBe(500);
      expect(log).toHaveBeenCalledTimes(1);
      expect(log.mock.calls[0]?.[1]).toMatchObject({ reason: 'handler_failed', cause: new Error('queue full') });
    } finally {
      log.mockRestore();
      await close();
    }
  });

  it('reports a body cut off by the sender as body_unreadable, without calling onEvent', async () => {
    const onEvent = vi.fn();
    const onError = vi.fn();
    const { url, close } = await onNodeHttp({ secret, onEvent, onError });
    try {
      const { hostname, port, pathname } = new URL(url);
      const request = httpRequest({
        hostname,
        port,
        path: pathname,
        method: 'POST',
        headers: { 'content-length': 1000, 'x-signature-256': 'sha256=00' },
      });
      request.on('error', () => {}); // the socket this test destroys
      request.write('{"event":"prospect_response"');
      await new Promise((resolve) => setTimeout(resolve, 50));
      request.destroy();
      await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
      expect(onError.mock.calls[0]?.[0]).toMatchObject({ name: 'WebhookReceiverError', reason: 'body_unreadable' });
      expect(onEvent).not.toHaveBeenCalled();
    } finally {
      await close();
    }
  });

  it('validates the whole event with a schema: 400 for a signed event that breaks it, the parsed event to onEvent', async () => {
    const onEvent = vi.fn();
    const { url, close } = await onNodeHttp({ secret, schema: eventSchema, onEvent, onError: () => {} });
    try {
      const broken = JSON.stringify({ ...freshEvent(), channel: 'fax' });
      const refused = await post(url, broken, await sign(broken, secret));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        reason: 'invalid_payload',
        message: expect.stringMatching(/channel/),
      });
      const event = freshEvent();
      expect((await deliver(url, event)).status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(onEvent.mock.calls[0]?.[0]).toEqual(event);
    } finally {
      await close();
    }
  });

  it('refuses a missing secret when it is made, not at the first delivery', () => {
    expect(() => createNodeHandler({ secret: process.env.OCS_UNSET_SECRET as string, onEvent: () => {} })).toThrow(
      /secret: expected a non-empty string or array of strings, got undefined: is the environment variable/,
    );
    expect(() => createNodeHandler({ secret: [''], onEvent: () => {} })).toThrow(TypeError);
    expect(() => createNodeHandler({ secret } as NodeHandlerOptions)).toThrow(/onEvent: expected a function/);
  });
});

describe('Express 5', () => {
  describe('without a body parser on the route', () => {
    receiverContract(((options) => onExpress(options)) as StartReceiver);
  });

  describe('with express.raw()', () => {
    receiverContract(((options) => onExpress(options, express.raw({ type: 'application/json' }))) as StartReceiver);
  });

  it('with express.text() or express.json({ verify }) keeping req.rawBody', async () => {
    const keepRaw = express.json({
      verify: (req, _res, buffer) => {
        (req as { rawBody?: Buffer }).rawBody = buffer;
      },
    });
    for (const parser of [express.text({ type: 'application/json' }), keepRaw]) {
      const onEvent = vi.fn();
      const { url, close } = await onExpress({ secret, onEvent }, parser);
      try {
        const event = freshEvent('Grüße — yes, Thursday works ✓');
        expect(await (await deliver(url, event)).json()).toEqual({ status: 'handled' });
        expect(onEvent.mock.calls[0]?.[0]).toEqual(event);
      } finally {
        await close();
      }
    }
  });

  it('after express.json() consumed the body: 500 parsed_body, saying what to change, and onEvent never called', async () => {
    const onEvent = vi.fn();
    const onError = vi.fn();
    const app = express();
    app.use(express.json());
    app.post('/webhooks/ocs', createNodeHandler({ secret, onEvent, onError }));
    const { url, close } = await listen(createServer(app));
    try {
      const response = await deliver(url, freshEvent());
      expect(response.status).toBe(500);
      const answer = (await response.json()) as { reason: string; message: string };
      expect(answer.reason).toBe('parsed_body');
      expect(answer.message).toMatch(/req\.body is object.*express\.json\(\).*express\.raw/);
      expect(onError.mock.calls[0]?.[0]).toMatchObject({ name: 'WebhookVerificationError', reason: 'parsed_body' });
      expect(onEvent).not.toHaveBeenCalled();
    } finally {
      await close();
    }
  });

  it('a body read and dropped by another middleware: 500 parsed_body', async () => {
    const app = express();
    app.use((req, _res, next) => {
      req.resume();
      req.on('end', () => next());
    });
    app.post('/webhooks/ocs', createNodeHandler({ secret, onEvent: () => {}, onError: () => {} }));
    const { url, close } = await listen(createServer(app));
    try {
      const response = await deliver(url, freshEvent());
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        reason: 'parsed_body',
        message: expect.stringMatching(/read before/),
      });
    } finally {
      await close();
    }
  });
});
