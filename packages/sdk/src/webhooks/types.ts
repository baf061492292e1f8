import type { components } from '../generated/openapi.ts';
import type { RawBody } from './body.ts';
import type { WebhookPayloadIssue } from './errors.ts';
import type { HeadersLike, HeaderValue } from './signature.ts';

/**
 * The `prospect_response` event, typed from the OpenAPI document. Forward-compatible: unknown
 * fields are kept (`[key: string]: unknown`), and `conversation_status`, `goal_status`,
 * `sentiment`, `agent_action` and `conversation_owner` accept values beyond the known ones.
 */
export type ProspectResponseEvent = components['schemas']['ProspectResponseEvent'];

/** One signing secret, or several while rotating: a signature made with any of them passes. */
export type WebhookSecret = string | readonly string[];

export interface VerifySignatureInput {
  /** The raw body exactly as received (a `Request` is read from a clone). */
  payload: RawBody | Request;
  /** The `X-Signature-256` header's value (as Node or Fetch give it); missing or malformed means `false`. */
  signature: HeaderValue;
  secret: WebhookSecret;
}

/**
 * What `verifyAndParse` reads: a Fetch `Request`, or the raw body with the request's headers
 * (any case: Node's `req.headers`, a record, or `Headers`), or with the signature itself.
 */
export type VerifyAndParseInput =
  | Request
  | { payload: RawBody | Request; headers: HeadersLike }
  | { payload: RawBody | Request; signature: HeaderValue };

/**
 * A Standard Schema (zod 4, valibot, arktype...), such as `ProspectResponseEvent` from
 * `@ocs/sdk/zod`, to validate the whole event after the signature.
 */
export interface EventSchema<Output> {
  readonly '~standard': {
    readonly validate: (value: unknown) => EventSchemaResult<Output> | PromiseLike<EventSchemaResult<Output>>;
  };
}

export type EventSchemaResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<WebhookPayloadIssue> };

export interface VerifyAndParseOptions<Event> {
  secret: WebhookSecret;
  /**
   * Full validation of the event, opt-in so that the verifier stays small: without it only
   * `event` and `idempotency_key` are checked.
   */
  schema?: EventSchema<Event> | undefined;
}

/** Extra headers for `createSignedRequest`. */
export interface SignedRequestInit {
  headers?: HeadersInit | undefined;
}
