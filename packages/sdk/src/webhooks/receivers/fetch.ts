/**
 * `@ocs/sdk/webhooks/fetch`: a receiver that is a web-standard fetch handler,
 * `(Request) => Promise<Response>`, the shape of Hono routes, Next.js route handlers,
 * `Deno.serve`, `Bun.serve`, Cloudflare Workers and other edge functions. Verifies with the
 * Web Crypto build, which every one of them has.
 */
import { WebhookVerificationError } from '../errors.ts';
import type { ProspectResponseEvent } from '../types.ts';
import { diagnoseSignature, verifyAndParse } from '../web.ts';
import { bodyTooLarge } from './errors.ts';
import type { ReceiverOptions } from './options.ts';
import { createReceiver } from './receive.ts';

export interface FetchHandlerOptions<Event = ProspectResponseEvent> extends ReceiverOptions<Event, Request> {
  /** The largest body read, in bytes: 1 MiB by default; larger answers 413 (as the Node receiver). */
  maxBodyBytes?: number | undefined;
}

/**
 * A `(Request) => Promise<Response>` that receives `prospect_response` deliveries: it reads
 * the raw body, verifies `X-Signature-256`, skips repeats, calls `onEvent`, and answers 200
 * when it resolves, 500 when it throws (the service retries), 401 for a bad signature (the
 * body says which cause), 409 while a copy of the event is being processed. A `Request`
 * whose body was already read (`await c.req.json()`, a validator) answers 500 `parsed_body`.
 *
 * @example
 * ```ts
 * // app/webhooks/ocs/route.ts (Next.js)
 * import { createFetchHandler } from '@ocs/sdk/webhooks/fetch';
 *
 * export const POST = createFetchHandler({
 *   secret: process.env.OCS_WEBHOOK_SECRET!,
 *   onEvent: async (event) => saveReply(event),
 * });
 * ```
 */
export function createFetchHandler<Event = ProspectResponseEvent>(
  options: FetchHandlerOptions<Event>,
): (request: Request) => Promise<Response> {
  const receive = createReceiver({ verifyAndParse, diagnoseSignature }, options);
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  return async (request) => {
    const answer = await receive({
      request,
      method: request.method,
      headers: request.headers,
      body: () => {
        if (request.bodyUsed) {
          throw new WebhookVerificationError(
            'parsed_body',
            'The Request’s body was read before this handler (await c.req.json(), request.json() or a validator), and a parsed body cannot be verified: pass the Request before anything reads it.',
          );
        }
        return readLimited(request, limit);
      },
    });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  };
}

/** The body, read up to `limit` bytes: a larger one is refused as soon as it shows (413). */
async function readLimited(request: Request, limit: number): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > limit) throw bodyTooLarge(limit);
  if (!request.body) return new Uint8Array(await request.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

export { WebhookVerificationError } from '../errors.ts';
export type { WebhookVerificationReason } from '../errors.ts';
export { WebhookReceiverError } from './errors.ts';
export type { WebhookReceiverReason } from './errors.ts';
export type { ReceiverOptions } from './options.ts';
