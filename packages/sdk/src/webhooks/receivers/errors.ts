/**
 * Why a receiver refused a delivery for a reason other than its signature or its event
 * (those are `WebhookVerificationError`s):
 * - `method_not_allowed`: not a `POST` (405);
 * - `body_too_large`: the body is over the receiver's limit (413);
 * - `body_unreadable`: the body could not be read, e.g. the sender went away mid-body (400);
 * - `in_flight`: another delivery of the same event is being processed (409: the service
 *   retries this one, which is then skipped if that one succeeded, or processed if it failed);
 * - `handler_failed`: your `onEvent` threw, or the dedupe store or the schema did; `cause`
 *   holds what was thrown (500: the service retries the delivery).
 */
import { brandKey } from '../errors.ts';

export type WebhookReceiverReason =
  'method_not_allowed' | 'body_too_large' | 'body_unreadable' | 'in_flight' | 'handler_failed';

/** A refusal of the receiver itself, with the HTTP status it answered. */
export class WebhookReceiverError extends Error {
  /** Whether `value` is one, made by any copy of the SDK (its CommonJS or ESM build; src/brand.ts). */
  static override [Symbol.hasInstance]<T>(this: abstract new (...args: never) => T, value: unknown): value is T {
    return (this as unknown) === WebhookReceiverError
      ? (value as { [brandKey]?: unknown } | null)?.[brandKey] === 'WebhookReceiverError'
      : super[Symbol.hasInstance](value);
  }
  declare readonly name: 'WebhookReceiverError';
  declare readonly reason: WebhookReceiverReason;
  /** The HTTP status the receiver answered. */
  declare readonly status: number;

  constructor(reason: WebhookReceiverReason, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    Object.assign(this, { name: 'WebhookReceiverError', reason, status, [brandKey]: 'WebhookReceiverError' });
  }
}

/** The body is over the receiver's `maxBodyBytes`: 413. */
export const bodyTooLarge = (limit: number) =>
  new WebhookReceiverError('body_too_large', 413, `The body is over ${limit} bytes (the receiver's maxBodyBytes).`);
