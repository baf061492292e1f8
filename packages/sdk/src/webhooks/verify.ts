/**
 * The verification steps both entries share. Each entry passes `check`: whether a secret
 * signs a body to a signature, with `node:crypto` or with Web Crypto.
 */
import { bodyText, isRequest, readBody } from './body.ts';
import { WebhookVerificationError } from './errors.ts';
import {
  type HeadersLike,
  type HeaderValue,
  headerText,
  parseSignature,
  signatureFrom,
  signatureHeader,
} from './signature.ts';
import type {
  ProspectResponseEvent,
  VerifyAndParseInput,
  VerifyAndParseOptions,
  VerifySignatureInput,
  WebhookSecret,
} from './types.ts';

/** Whether HMAC-SHA256(secret, body) equals the signature given as 64 hex digits. */
export type Check = (secret: string, body: string | Uint8Array, signature: string) => boolean | Promise<boolean>;

export function checkSecret(secret: WebhookSecret): void {
  if (!secret?.length || (typeof secret !== 'string' && !secret.every((s) => typeof s === 'string' && s))) {
    throw new TypeError('secret: expected a string or an array of strings');
  }
}

/**
 * Whether the secret, or any of the secrets, matches. Synchronous when `check` is (Node), and
 * without an allocation for the common single secret: this is the receiver's hot path.
 */
export function matches(
  check: Check,
  secret: WebhookSecret,
  body: string | Uint8Array,
  signature: string,
  i = 0,
): boolean | Promise<boolean> {
  if (typeof secret === 'string') return check(secret, body, signature);
  if (i === secret.length) return false;
  const match = check(secret[i] as string, body, signature);
  const next = (yes: boolean) => yes || matches(check, secret, body, signature, i + 1);
  return typeof match === 'boolean' ? next(match) : match.then(next);
}

export async function verifySignatureWith(check: Check, input: VerifySignatureInput): Promise<boolean> {
  let body = readBody(input.payload, true);
  // Not `instanceof Promise`: a Request from another realm (an edge VM) returns that realm's.
  if (typeof body === 'object' && 'then' in body) body = await body;
  checkSecret(input.secret);
  const header = headerText(input.signature);
  const signature = header && parseSignature(header);
  return signature ? matches(check, input.secret, body, signature) : false;
}

export async function verifyAndParseWith<Event = ProspectResponseEvent>(
  check: Check,
  input: VerifyAndParseInput,
  // Defaulted: called from JavaScript without options, the secret check says what is missing.
  { secret, schema }: VerifyAndParseOptions<Event> = {} as VerifyAndParseOptions<Event>,
): Promise<Event> {
  checkSecret(secret);
  const request = isRequest(input) ? input : undefined;
  // A parsed event passed as `input` itself is refused by readBody like any parsed body.
  // A string or nothing passed where `{ payload, headers }` was due must end in a typed error, not `in`'s TypeError.
  const parts = (typeof input === 'object' && input !== null ? input : {}) as {
    payload?: unknown;
    headers?: HeadersLike;
    signature?: HeaderValue;
  };
  const body = await readBody(request ?? ('payload' in parts ? parts.payload : input));
  const header = headerText(
    request
      ? request.headers.get(signatureHeader)
      : 'signature' in parts
        ? parts.signature
        : parts.headers && signatureFrom(parts.headers),
  );
  if (!header) {
    throw new WebhookVerificationError(
      'missing_signature',
      `No ${signatureHeader} header: give the webhook a secret, and pass the request's headers.`,
    );
  }
  const signature = parseSignature(header);
  if (!signature) {
    throw new WebhookVerificationError('malformed_signature', `${signatureHeader} is not sha256=<64 hex digits>.`);
  }
  if (!(await matches(check, secret, body, signature))) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      `${signatureHeader} does not match: check the secret, and pass the body exactly as received.`,
    );
  }
  let event: { event?: unknown; idempotency_key?: unknown } | null;
  try {
    event = JSON.parse(bodyText(body));
  } catch (cause) {
    throw new WebhookVerificationError('invalid_json', 'The signed body is not valid JSON.', { cause });
  }
  if (event?.event !== 'prospect_response' || typeof event.idempotency_key !== 'string') {
    throw new WebhookVerificationError(
      'invalid_payload',
      'The signed JSON is not a prospect_response event with an idempotency_key.',
    );
  }
  if (!schema) return event as Event;
  const result = await schema['~standard'].validate(event);
  if (result.issues) {
    // Paths of JSON values hold strings and numbers (bare or as `{ key }`), never symbols.
    const list = result.issues.map(
      (issue) => `${issue.path?.map((p) => (p as { key?: PropertyKey }).key ?? p).join('.')}: ${issue.message}`,
    );
    throw new WebhookVerificationError('invalid_payload', `The event does not match the schema: ${list.join('; ')}`, {
      issues: result.issues,
    });
  }
  return result.value;
}
