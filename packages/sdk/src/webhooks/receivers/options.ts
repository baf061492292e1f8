import type { Deduplicator } from '../dedupe.ts';
import type { WebhookVerificationError } from '../errors.ts';
import type { EventSchema, WebhookSecret } from '../types.ts';
import type { WebhookReceiverError } from './errors.ts';

/**
 * What every receiver takes (`createNodeHandler`, `createFastifyPlugin`,
 * `createFastifyHandler`, `createFetchHandler`). `Request` is the framework's own request,
 * handed to `onEvent` and `onError` as received.
 */
export interface ReceiverOptions<Event, Request> {
  /** The webhook's signing secret, or several while rotating: any of them may have signed. */
  secret: WebhookSecret;
  /**
   * Your handling of a verified event. The receiver answers 200 when it resolves, and 500
   * when it throws, so that the service retries the delivery. The service waits 75 seconds
   * for the answer: hand long work to a durable queue and resolve once it is queued.
   */
  onEvent: (event: Event, request: Request) => unknown;
  /**
   * A Standard Schema (`ProspectResponseEvent` from `@ocs/sdk/zod`) to validate the whole
   * event; without it, only `event` and `idempotency_key` are checked. A failure answers 400.
   */
  schema?: EventSchema<Event> | undefined;
  /**
   * Skips deliveries of events already processed, keyed on `idempotency_key`: an event is
   * recorded as processed only once `onEvent` resolved. Defaults to `createDeduplicator()`,
   * whose in-memory store does not survive a restart or a redeploy and is not shared between
   * processes, instances or serverless isolates: with any of those, pass
   * `createDeduplicator({ store })` over a shared store. `false` hands every delivery to
   * `onEvent` (when it deduplicates on its own, e.g. a unique index on the key).
   */
  dedupe?: Deduplicator | false | undefined;
  /**
   * Called for every refused delivery, with the reason: a `WebhookVerificationError` (400,
   * 401, or 500 for `parsed_body`) or a `WebhookReceiverError` (405, 409, 413, 400, or 500
   * for `handler_failed`, whose `cause` is what `onEvent`, the store or the schema threw). Defaults to logging the
   * 5xx ones with `console.error`: forged or misdirected requests are not your bug.
   */
  onError?: ((error: WebhookVerificationError | WebhookReceiverError, request: Request) => void) | undefined;
}
