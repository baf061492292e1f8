/**
 * `@ocs/sdk/webhooks/fastify`: a Fastify plugin that serves the receiver on one route, and the
 * route handler itself. Fastify parses JSON bodies by default, and a parsed body cannot be
 * verified, so the plugin reads bodies raw, in its own encapsulated scope only: the
 * application's other routes keep their parsers. Verifies with the `node:crypto` build.
 *
 * The Fastify types are described here by the little the receiver uses, not imported: the
 * package does not depend on Fastify (tested with Fastify 5).
 */
import { diagnoseSignature, verifyAndParse } from '../node.ts';
import { WebhookVerificationError } from '../errors.ts';
import type { RawBody } from '../body.ts';
import type { HeadersLike } from '../signature.ts';
import type { ProspectResponseEvent } from '../types.ts';
import type { ReceiverOptions } from './options.ts';
import { createReceiver } from './receive.ts';

/** What the receiver reads of a Fastify request (`rawBody` is fastify-raw-body's). */
export interface FastifyRequestLike {
  method: string;
  headers: HeadersLike;
  body?: unknown;
  rawBody?: unknown;
}

/** What the receiver uses of a Fastify reply. */
export interface FastifyReplyLike {
  code(statusCode: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
}

/**
 * What the plugin uses of the Fastify instance it is registered on. (Parameters are as wide
 * as Fastify's overloads need for a `FastifyInstance` to be one.)
 */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers(): unknown;
  addContentTypeParser(
    contentType: string,
    options: { parseAs: 'buffer' },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: unknown) => void) => void,
  ): unknown;
  post(path: string, handler: (request: unknown, reply: unknown) => unknown): unknown;
}

export type FastifyHandlerOptions<Event = ProspectResponseEvent> = ReceiverOptions<Event, FastifyRequestLike>;

export interface FastifyPluginOptions<Event = ProspectResponseEvent> extends FastifyHandlerOptions<Event> {
  /** The route's path, e.g. `/webhooks/ocs` (under the `prefix` given to `register`, if any). */
  path: string;
}

function rawBodyOf(request: FastifyRequestLike): RawBody {
  for (const body of [request.rawBody, request.body]) {
    if (typeof body === 'string' || body instanceof Uint8Array) return body;
  }
  if (request.body === undefined || request.body === null) return '';
  throw new WebhookVerificationError(
    'parsed_body',
    `Fastify parsed the body (request.body is ${typeof request.body}), and a parsed body cannot be verified: register the route with createFastifyPlugin, which reads bodies raw in its own scope, or keep them raw with a content-type parser ({ parseAs: 'buffer' }) or fastify-raw-body.`,
  );
}

/**
 * The route handler, for a route whose body is kept raw (by your content-type parser, or as
 * `request.rawBody` by fastify-raw-body). Given a body Fastify parsed as JSON, it answers 500
 * `parsed_body` saying so. Most applications want `createFastifyPlugin` instead.
 *
 * @example
 * ```ts
 * app.post('/webhooks/ocs', { config: { rawBody: true } }, createFastifyHandler({ secret, onEvent }));
 * ```
 */
export function createFastifyHandler<Event = ProspectResponseEvent>(
  options: FastifyHandlerOptions<Event>,
): (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<FastifyReplyLike> {
  const receive = createReceiver({ verifyAndParse, diagnoseSignature }, options);
  return async (request, reply) => {
    const answer = await receive({
      request,
      method: request.method,
      headers: request.headers,
      body: () => rawBodyOf(request),
    });
    return reply.code(answer.status).headers(answer.headers).send(JSON.stringify(answer.body));
  };
}

/**
 * A Fastify plugin serving the receiver at `POST path`: it verifies `X-Signature-256` on the
 * raw body, skips repeats, calls `onEvent`, and answers 200 when it resolves, 500 when it
 * throws (the service retries), 401 for a bad signature (the body says which cause), 409
 * while a copy of the event is being processed. Bodies are read raw in the plugin's scope only.
 *
 * @example
 * ```ts
 * import { createFastifyPlugin } from '@ocs/sdk/webhooks/fastify';
 *
 * await app.register(
 *   createFastifyPlugin({
 *     path: '/webhooks/ocs',
 *     secret: process.env.OCS_WEBHOOK_SECRET!,
 *     onEvent: async (event) => saveReply(event),
 *   }),
 * );
 * ```
 */
export function createFastifyPlugin<Event = ProspectResponseEvent>(
  options: FastifyPluginOptions<Event>,
): (instance: FastifyInstanceLike) => Promise<void> {
  if (typeof options?.path !== 'string' || !options.path.startsWith('/')) {
    throw new TypeError(`path: expected the route's path, such as '/webhooks/ocs', got ${String(options?.path)}`);
  }
  const handler = createFastifyHandler(options);
  return async (instance) => {
    // Encapsulated: these parsers replace the inherited ones for this plugin's routes only.
    instance.removeAllContentTypeParsers();
    instance.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    instance.post(options.path, handler as (request: unknown, reply: unknown) => unknown);
  };
}

export { WebhookVerificationError } from '../errors.ts';
export type { WebhookVerificationReason } from '../errors.ts';
export { WebhookReceiverError } from './errors.ts';
export type { WebhookReceiverReason } from './errors.ts';
export type { ReceiverOptions } from './options.ts';
