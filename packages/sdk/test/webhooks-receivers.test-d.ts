/**
 * Types of the receivers where users put them: Express routes, node:http, Fastify's
 * `register` and routes (4 and 5 share these types), Hono, a Next.js route handler, and the
 * typed event, from the document or from a schema.
 */
import { createServer } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { components } from '../src/generated/openapi.ts';
import { createFastifyHandler, createFastifyPlugin } from '../src/webhooks/receivers/fastify.ts';
import { createFetchHandler } from '../src/webhooks/receivers/fetch.ts';
import { createNodeHandler, type WebhookReceiverError } from '../src/webhooks/receivers/node.ts';
import type { WebhookVerificationError } from '../src/webhooks/node.ts';
import { ProspectResponseEvent as eventSchema } from '../src/zod.ts';

const secret = 'whsec_types_0123456789';
type Event = components['schemas']['ProspectResponseEvent'];

describe('receiver types', () => {
  it('createNodeHandler serves node:http and Express routes', () => {
    const handler = createNodeHandler({ secret, onEvent: (event) => expectTypeOf(event).toEqualTypeOf<Event>() });
    createServer(handler);
    const app = express();
    app.post('/webhooks/ocs', handler);
    app.post('/raw', express.raw({ type: 'application/json' }), handler);
  });

  it('createFastifyPlugin registers on a Fastify instance, createFastifyHandler is a route handler', async () => {
    const app = Fastify();
    await app.register(createFastifyPlugin({ path: '/webhooks/ocs', secret, onEvent: () => {} }));
    await app.register(createFastifyPlugin({ path: '/hooks', secret, onEvent: () => {} }), { prefix: '/v2' });
    app.post('/own', createFastifyHandler({ secret, onEvent: () => {} }));
  });

  it('createFetchHandler is a fetch handler: Hono, Next.js, Deno, Bun, Workers', () => {
    const handler = createFetchHandler({ secret, onEvent: () => {} });
    expectTypeOf(handler).toEqualTypeOf<(request: Request) => Promise<Response>>();
    new Hono().post('/webhooks/ocs', (c) => handler(c.req.raw));
    // Next.js calls a route handler with the request and a context.
    const POST: (request: Request, context: { params: Promise<object> }) => Promise<Response> = handler;
    expectTypeOf(POST).returns.resolves.toEqualTypeOf<Response>();
  });

  it('types the event from the schema, and the errors given to onError', () => {
    createFetchHandler({
      secret: [secret, 'whsec_previous_0123456'],
      schema: eventSchema,
      onEvent: (event, request) => {
        expectTypeOf(event).toEqualTypeOf<z.output<typeof eventSchema>>();
        expectTypeOf(request).toEqualTypeOf<Request>();
      },
      onError: (error) => {
        expectTypeOf(error).toEqualTypeOf<WebhookVerificationError | WebhookReceiverError>();
        expectTypeOf(error.reason).toBeString();
      },
    });
  });

  it('takes a deduplicator or false', () => {
    expectTypeOf(createNodeHandler).toBeCallableWith({ secret, onEvent: () => {}, dedupe: false });
    // @ts-expect-error: the secret is required
    createNodeHandler({ onEvent: () => {} });
  });
});
