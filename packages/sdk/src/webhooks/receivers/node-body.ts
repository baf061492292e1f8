/**
 * The raw body of a Node request (`node:http`, Express, Connect...), wherever the framework
 * left it: kept by a body parser (`express.raw()`, `express.text()`, a `verify` hook's
 * `req.rawBody`, Google Cloud Functions' `req.rawBody`), or still in the stream. A body that
 * a JSON parser consumed cannot be verified any more: that is `parsed_body`, with what to do.
 */
import { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { RawBody } from '../body.ts';
import { WebhookVerificationError } from '../errors.ts';
import { bodyTooLarge } from './errors.ts';

/** A request as Express and other frameworks extend it. */
export type NodeRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

const isRaw = (value: unknown): value is string | Uint8Array =>
  typeof value === 'string' || value instanceof Uint8Array;

async function readStream(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (Number(request.headers['content-length']) > limit) throw bodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw bodyTooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function nodeRawBody(request: NodeRequest, limit: number): RawBody | Promise<Uint8Array> {
  if (isRaw(request.rawBody)) return request.rawBody;
  if (isRaw(request.body)) return request.body;
  // Nobody read the stream (Express 4's body-parser leaves `req.body = {}` when it skips a request).
  if (!request.readableEnded) return readStream(request, limit);
  throw new WebhookVerificationError(
    'parsed_body',
    request.body !== undefined && request.body !== null
      ? `The body was parsed before this handler (req.body is ${Array.isArray(request.body) ? 'an array' : typeof request.body}), and a parsed body cannot be verified: mount the handler before express.json(), or give its route express.raw({ type: 'application/json' }).`
      : 'The body was read before this handler and not kept: mount the handler before the middleware that reads it, or keep the bytes with express.raw({ type: "application/json" }).',
  );
}
