/**
 * `@ocs/sdk/webhooks` for browsers and web-standard runtimes (edge functions, Deno, Bun,
 * Cloudflare Workers): HMAC-SHA256 with Web Crypto, the key imported once per secret. Same
 * API and test vectors as the Node entry (`node.ts`).
 */
import { type RawBody, readBody } from './body.ts';
import { fromHex, toHex } from './hex.ts';
import { diagnoseSignatureWith } from './diagnose.ts';
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

const encoder = new TextEncoder();
// importKey costs about as much as an HMAC of a small body: import once per secret. The
// promise is cached so that concurrent first calls share it; the cap bounds memory when
// secrets vary per tenant.
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= 100) keys.clear();
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}

const bytesOf = (body: string | Uint8Array) =>
  (typeof body === 'string' ? encoder.encode(body) : body) as Uint8Array<ArrayBuffer>;

async function hmac(secret: string, body: string | Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(secret), bytesOf(body)));
}

// Web Crypto's own HMAC verification compares in constant time (and is smaller to bundle
// than a digest and a comparison of our own: `verifyAndParse` has a size budget).
const check: Check = async (secret, body, signature) =>
  crypto.subtle.verify('HMAC', await keyOf(secret), fromHex(signature) as Uint8Array<ArrayBuffer>, bytesOf(body));

/**
 * Whether `signature` (the `X-Signature-256` value) is the HMAC-SHA256 of the raw body with
 * the secret, or with one of the secrets while rotating. Never throws for a bad signature;
 * throws `WebhookVerificationError` (`parsed_body`) when the body is not raw.
 *
 * @example
 * ```ts
 * const ok = await verifySignature({ payload: request, signature: request.headers.get('x-signature-256'), secret });
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
 * export default { fetch: async (request) => {
 *   const event = await verifyAndParse(request, { secret: env.OCS_WEBHOOK_SECRET });
 *   return new Response(null, { status: 204 });
 * } };
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
 * const problem = await diagnoseSignature({ payload: bytes, signature: request.headers.get('x-signature-256'), secret });
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
  return `sha256=${toHex(await hmac(secret, await readBody(payload, true)))}`;
}

/**
 * A signed `POST` of an event (serialised as JSON) or of a raw body, as the service would
 * send it: for testing a receiver.
 *
 * @example
 * ```ts
 * const response = await handler(await createSignedRequest('https://example.test/hooks', event, secret));
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
