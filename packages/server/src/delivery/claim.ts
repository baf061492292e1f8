/**
 * Claim, the worker's first step: a batch of due deliveries taken under a lease (one
 * statement), the enabled webhooks of their campaigns (one read per campaign), and for each
 * delivery either its signed requests, ready to leave (`attempt.ts`), or the reason it is
 * given up before an attempt: too late for one (`schedule.ts`), or no enabled webhook.
 *
 * And the claim's last check, just before its requests leave: whether this worker still
 * holds it. A delivery cancelled meanwhile (its lead was erased, decision 0003) or taken over
 * is not sent. One read for every attempt ready meanwhile, rather than a round trip each.
 */
import { type Clock, wallClockOf } from '../domain/clock.ts';
import type { DeliveryRecord, WebhookRecord } from '../store/records.ts';
import type { DeliveryClaimState, Store } from '../store/types.ts';
import { type DeliverySigner, type PreparedAttempt, prepareAttempt } from './attempt.ts';
import { createBatcher } from './batcher.ts';
import { refusalBeforeAttempt } from './schedule.ts';
import type { WebhookTransport } from './types.ts';

export interface ClaimOptions {
  store: Store;
  workerId: string;
  clock: Clock;
  /** Deliveries claimed in one query. */
  batchSize: number;
  /** How long a claim holds before another worker may take it over. */
  leaseMs: number;
  transport: WebhookTransport;
  signer: DeliverySigner;
  /** Told of each HTTP request an attempt makes (the worker counts them). */
  onRequest: () => void;
}

/** A claimed delivery with its signed requests, waiting for a slot to be sent. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord;
  prepared: PreparedAttempt;
}

/** Where a claim hands what it took, each as soon as it is known. */
export interface ClaimSink {
  ready(claimed: ClaimedDelivery): void;
  /** Given up before its attempt, for `reason`. */
  refused(delivery: DeliveryRecord, reason: string): void;
  /** Nothing was due. */
  none(): void;
}

export interface Claimer {
  /** Claims the next batch of due deliveries. */
  claimBatch(sink: ClaimSink): Promise<void>;
  /** Whether this worker still holds the claim, read just before sending (batched). */
  stillHeld(delivery: DeliveryRecord): Promise<boolean>;
}

const noWebhookReason = 'no enabled webhook at attempt time: the event was dropped';

export function createClaimer(options: ClaimOptions): Claimer {
  const { store, workerId, clock, batchSize, leaseMs } = options;
  const tools = { transport: options.transport, signer: options.signer, clock, onRequest: options.onRequest };

  const checks = createBatcher(async (batch: DeliveryRecord[]) => {
    const now = new Map<string, DeliveryClaimState>();
    for (const state of await store.deliveries.readClaims(batch.map((d) => d.id))) now.set(state.id, state);
    return batch.map((delivery) => {
      const current = now.get(delivery.id);
      return (
        current !== undefined &&
        current.status === 'pending' &&
        current.lease_owner === workerId &&
        current.attempts_made === delivery.attempts_made
      );
    });
  });

  /** The enabled webhooks of each campaign of a claimed batch: one read per campaign. */
  async function enabledWebhooks(claimed: DeliveryRecord[]): Promise<Map<string, WebhookRecord[]>> {
    const campaignIds = [...new Set(claimed.map((d) => d.campaign_id))];
    const lists = await Promise.all(campaignIds.map((id) => store.webhooks.listEnabled(id)));
    return new Map(campaignIds.map((id, i) => [id, lists[i] ?? []]));
  }

  return {
    async claimBatch(sink) {
      const now = clock.now();
      // The lease runs on real time: an advance of the sandbox clock, here or by another
      // server on the database, must not hand an attempt still out to another worker.
      const wall = wallClockOf(clock);
      // One reading off the sandbox, so that a lease's end is its due-again time there.
      const realNow = wall === clock ? now : wall.now();
      const claimed = await store.deliveries.claimDue({
        now: now.toISOString(),
        limit: batchSize,
        workerId,
        realNow: realNow.toISOString(),
        leaseUntil: new Date(realNow.getTime() + leaseMs).toISOString(),
        dueAgainAt: new Date(now.getTime() + leaseMs).toISOString(),
      });
      if (claimed.length === 0) {
        sink.none();
        return;
      }
      const webhooks = await enabledWebhooks(claimed);
      await Promise.all(
        claimed.map(async (delivery) => {
          const targets = webhooks.get(delivery.campaign_id) ?? [];
          const refusal =
            refusalBeforeAttempt(delivery.attempts_made, new Date(delivery.created_at), now) ??
            (targets.length === 0 ? noWebhookReason : null);
          if (refusal !== null) sink.refused(delivery, refusal);
          else sink.ready({ delivery, prepared: await prepareAttempt(tools, delivery, targets) });
        }),
      );
    },
    stillHeld: (delivery) => checks.add(delivery),
  };
}
