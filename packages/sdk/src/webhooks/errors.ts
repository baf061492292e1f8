/**
 * Why a webhook request was refused:
 * - `missing_signature`: no `X-Signature-256` header (answer 401);
 * - `malformed_signature`: the header is not `sha256=<64 hex digits>` (401);
 * - `signature_mismatch`: no secret signs these bytes to that signature (401);
 * - `secret_whitespace`: a secret only matches without the whitespace around it, a newline
 *   read from a file or an environment variable (401; found by `diagnoseSignature`);
 * - `reserialized_body`: the body is the signed JSON parsed and serialized again (spacing,
 *   indentation or escapes changed), not the bytes received (401; `diagnoseSignature`);
 * - `parsed_body`: a parsed object (or nothing) was passed where the raw body was needed:
 *   a bug in the receiver, not in the request (500);
 * - `invalid_json`: the signed body is not JSON (400);
 * - `invalid_payload`: the signed JSON is not a `prospect_response` event, or does not match
 *   the schema passed as `schema` (400).
 */
export type WebhookVerificationReason =
  | 'missing_signature'
  | 'malformed_signature'
  | 'signature_mismatch'
  | 'secret_whitespace'
  | 'reserialized_body'
  | 'parsed_body'
  | 'invalid_json'
  | 'invalid_payload';

/**
 * The brand of the SDK's classes (src/brand.ts), spelled here rather than imported so that
 * the verifier's entries share no chunk with the client's. The receiver's error class has
 * no subclass in the SDK: the brand is set on each instance, and `instanceof` of the class
 * itself is a look at it; a user's subclass gets the ordinary check. `WebhookVerificationError`
 * carries none: its 68 B would put `verifyAndParse` on Web Crypto over issue 12's 1,500 B
 * budget, so `instanceof` of it holds within one copy of the SDK only (check `error.name`
 * across copies).
 */
export const brandKey = Symbol.for('@ocs/sdk.class');

/** One problem found by the `schema` passed to `verifyAndParse` (Standard Schema issue). */
export interface WebhookPayloadIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/**
 * Thrown by `verifyAndParse` (and, for `parsed_body`, by every function that reads a body).
 * `reason` says what is wrong; the message says what to do about it.
 *
 * @example
 * ```ts
 * try {
 *   event = await verifyAndParse(request, { secret });
 * } catch (error) {
 *   // parsed_body is a bug in the receiver: let it surface as a 500.
 *   if (!(error instanceof WebhookVerificationError) || error.reason === 'parsed_body') throw error;
 *   const status = error.reason === 'invalid_json' || error.reason === 'invalid_payload' ? 400 : 401;
 *   return new Response(error.message, { status });
 * }
 * ```
 */
export class WebhookVerificationError extends Error {
  // Declared, not initialised as class fields: assignments in the constructor minify smaller,
  // and the verifier entry has a size budget.
  declare readonly name: 'WebhookVerificationError';
  /** What is wrong with the request (or with how it was passed). */
  declare readonly reason: WebhookVerificationReason;
  /** For `invalid_payload` found by a `schema`: what it reported. */
  declare readonly issues?: readonly WebhookPayloadIssue[];

  constructor(
    reason: WebhookVerificationReason,
    message: string,
    options?: { cause?: unknown; issues?: readonly WebhookPayloadIssue[] },
  ) {
    super(message, options);
    Object.assign(this, { name: 'WebhookVerificationError', reason, issues: options?.issues });
  }
}
