/**
 * `@ocs/sdk/webhooks` on Node (the `node` export condition): HMAC-SHA256 with `node:crypto`
 * and `timingSafeEqual`, several times faster there than Web Crypto. `web.ts` exports the
 * same API on Web Crypto for browsers and edge runtimes; both pass the same test vectors.
 */
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { type RawBody, readBody } from './body.ts';
import { diagnoseSignatureWith } from './diagnose.ts';
import { hmacKey } from './hmac-key.ts';
import { createSignedRequestWith } from './signed-request.ts';
import type { WebhookVerificationError } from './errors.ts';
import type {
  ProspectResponseEvent,
  SignedRequestInit,
  VerifyAndParseInput,
  VerifyAndParseOptions,
  VerifySignatureInput,
} from './types.ts';
import { type Check, verifyAndParseWith, verifySignatureWith } from './verify.ts';

// Compares hex digests: `digest('hex')` and `Buffer.from` of short strings use Node's buffer
// pool, where `digest()` would allocate a fresh ArrayBuffer per call (measurably slower).
// Both sides are 64 lower-case hex digits, so timingSafeEqual compares equal lengths. The key
// is the secret's, prepared once (hmac-key.ts).
const check: Check = (secret, body, signature) =>
  timingSafeEqual(
    Buffer.from(createHmac('sha256', hmacKey(secret)).update(body).digest('hex')),
    Buffer.from(signature),
  );

/**
 * Whether `signature` (the `X-Signature-256` value) is the HMAC-SHA256 of the raw body with
 * the secret, or with one of the secrets while rotating. Never throws for a bad signature;
 * throws `WebhookVerificationError` (`parsed_body`) when the body is not raw.
 *
 * @example
 * ```ts
 * const ok = await verifySignature({ payload: rawBody, signature: req.headers['x-signature-256'], secret });
 * ```
 */
export function verifySignature(input: VerifySignatureInput): Promise<boolean> {
  return verifySignatureWith(check, input);
}

/**
 * Verifies the signature, then parses the event: the typed `prospect_response` event, or a
 * `WebhookVerificationError` whose `reason` says what is wrong. Pass `schema`
 * (`ProspectResponseEvent` from `@ocs/sdk/zod`) to validate the whole event.
 *
 * @example
 * ```ts
 * const event = await verifyAndParse({ payload: req.body, headers: req.headers }, { secret });
 * console.log(event.ai_response.conversation_status);
 * ```
 */
export function verifyAndParse<Event = ProspectResponseEvent>(
  input: VerifyAndParseInput,
  options: VerifyAndParseOptions<Event>,
): Promise<Event> {
  return verifyAndParseWith(check, input, options);
}

/**
 * Why a delivery does not verify, after `verifyAndParse` refused it: the
 * `WebhookVerificationError` naming the cause (`missing_signature`, `malformed_signature`,
 * `secret_whitespace`, `reserialized_body`, `signature_mismatch`, or `parsed_body`), or
 * undefined when the signature matches. Never says the secret or the expected signature.
 * The receivers of `@ocs/sdk/webhooks/node`, `/fastify` and `/fetch` answer it in their 401s.
 *
 * @example
 * ```ts
 * const problem = await diagnoseSignature({ payload: rawBody, signature: req.headers['x-signature-256'], secret });
 * console.warn(problem?.reason, problem?.message); // 'secret_whitespace' 'The secret has whitespace…'
 * ```
 */
export function diagnoseSignature(input: VerifySignatureInput): Promise<WebhookVerificationError | undefined> {
  return diagnoseSignatureWith(check, input);
}

/**
 * The `X-Signature-256` value for a body: `sha256=<hex>`, as the service computes it.
 *
 * @example
 * ```ts
 * const signature = await sign('{"event":"prospect_response"}', secret); // 'sha256=…'
 * ```
 */
export async function sign(payload: RawBody | Request, secret: string): Promise<string> {
  return `sha256=${createHmac('sha256', secret)
    .update(await readBody(payload, true))
    .digest('hex')}`;
}

/**
 * A signed `POST` of an event (serialised as JSON) or of a raw body, as the service would
 * send it: for testing a receiver.
 *
 * @example
 * ```ts
 * const response = await fetch(await createSignedRequest('http://127.0.0.1:3000/hooks', event, secret));
 * ```
 */
export function createSignedRequest(
  url: string | URL,
  body: ProspectResponseEvent | RawBody,
  secret: string,
  init?: SignedRequestInit,
): Promise<Request> {
  return createSignedRequestWith(sign, url, body, secret, init);
}

export { createDeduplicator, createMemoryStore } from './dedupe.ts';
export type { ClaimState, DedupeKey, DedupeStore, Deduplicator, DeduplicatorOptions, OnceResult } from './dedupe.ts';
export { WebhookVerificationError } from './errors.ts';
export type { WebhookPayloadIssue, WebhookVerificationReason } from './errors.ts';
export { signatureHeader } from './signature.ts';
export type { HeadersLike, HeaderValue } from './signature.ts';
export type { RawBody } from './body.ts';
export type * from './types.ts';
