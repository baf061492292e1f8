import type { Deduplicator, WebhookSecret } from '@ocs/sdk/webhooks';
import type { EventQueue } from './queue.ts';

/** What every receiver of this example takes. */
export interface ReceiverOptions {
  /** The webhook's signing secret (several while rotating). */
  secret: WebhookSecret;
  /** Where verified, first-seen events go to be handled after the 2xx answer. */
  queue: EventQueue;
  /**
   * Defaults to an in-memory deduplicator, which a restart forgets and other processes do
   * not share: with several processes, `createDeduplicator({ store })` over a shared store.
   */
  dedupe?: Deduplicator;
}
