/**
 * `@ocs/sdk/webhooks/node`: a receiver for Node's `(req, res)`, for `node:http` and Express
 * (and Connect, Polka, Nest on Express...). Verifies with the `node:crypto` build.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { diagnoseSignature, verifyAndParse } from '../node.ts';
import type { ProspectResponseEvent } from '../types.ts';
import { type NodeRequest, nodeRawBody } from './node-body.ts';
import type { ReceiverOptions } from './options.ts';
import { createReceiver } from './receive.ts';

export interface NodeHandlerOptions<Event = ProspectResponseEvent> extends ReceiverOptions<Event, NodeRequest> {
  /** The largest body read from the stream, in bytes: 1 MiB by default; larger answers 413. */
  maxBodyBytes?: number | undefined;
}

/**
 * A `(req, res)` handler that receives `prospect_response` deliveries: it reads the raw body
 * (or takes it from `express.raw()`), verifies `X-Signature-256`, skips repeats, calls
 * `onEvent`, and answers 200 when it resolves, 500 when it throws (the service retries), 401
 * for a bad signature (the body says which cause), 409 while a copy of the event is being
 * processed. A body already parsed by `express.json()` answers 500 `parsed_body`, with what to
 * change. It never rejects.
 *
 * @example
 * ```ts
 * import { createNodeHandler } from '@ocs/sdk/webhooks/node';
 *
 * const receive = createNodeHandler({
 *   secret: process.env.OCS_WEBHOOK_SECRET!,
 *   onEvent: async (event) => saveReply(event),
 * });
 * createServer(receive).listen(3000); // or, with Express: app.post('/webhooks/ocs', receive)
 * ```
 */
export function createNodeHandler<Event = ProspectResponseEvent>(
  options: NodeHandlerOptions<Event>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const receive = createReceiver({ verifyAndParse, diagnoseSignature }, options);
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  return async (req, res) => {
    const request = req as NodeRequest;
    const answer = await receive({
      request,
      method: request.method,
      headers: request.headers,
      body: () => nodeRawBody(request, limit),
    });
    if (!res.headersSent) res.writeHead(answer.status, answer.headers).end(JSON.stringify(answer.body));
  };
}

export { WebhookVerificationError } from '../errors.ts';
export type { WebhookVerificationReason } from '../errors.ts';
export { WebhookReceiverError } from './errors.ts';
export type { WebhookReceiverReason } from './errors.ts';
export type { ReceiverOptions } from './options.ts';
export type { NodeRequest } from './node-body.ts';
