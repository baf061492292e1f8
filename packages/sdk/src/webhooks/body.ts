import { WebhookVerificationError } from './errors.ts';

/** The raw request body, exactly as received: the signature covers these bytes. */
export type RawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/** A Fetch `Request`, recognised by shape so that one from another realm (an edge VM) works. */
export function isRequest(value: unknown): value is Request {
  return typeof (value as Request)?.arrayBuffer === 'function' && typeof (value as Request).headers?.get === 'function';
}

/**
 * The body as a string or bytes; a `Request` is read (from a clone when `keep` is set, so
 * the caller can still read it). Synchronous unless a `Request` must be read: on a Node
 * receiver's hot path every `await` saved shows. Anything else is refused: a parsed object
 * cannot be verified, since re-serialising JSON rarely gives back the bytes that were signed.
 */
export function readBody(payload: unknown, keep?: boolean): string | Uint8Array | Promise<Uint8Array> {
  if (typeof payload === 'string') return payload;
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (isRequest(payload) && !payload.bodyUsed) {
    return (keep ? payload.clone() : payload).arrayBuffer().then((buffer) => new Uint8Array(buffer));
  }
  throw new WebhookVerificationError(
    'parsed_body',
    `Expected the raw body (string, bytes or an unread Request), got ${
      isRequest(payload) ? 'a read Request' : payload === null ? 'null' : typeof payload
    }: pass the body before JSON parsing, e.g. express.raw({ type: 'application/json' }).`,
  );
}

/** The body as text for `JSON.parse`; invalid UTF-8 throws rather than being patched over. */
export function bodyText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
}
