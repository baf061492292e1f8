/**
 * The delivery worker: drains the `prospect_response` outbox (section 6) in three steps,
 * one file each: claim (this file: batches of due deliveries under a lease), attempt
 * (`attempt.ts`: signed requests to the campaign's enabled webhooks) and settle
 * (`settle.ts`: delivered, retried or failed). Web-standard (no Node import): the transport
 * it is given does the HTTP.
 *
 * Each claimed delivery gets one attempt: the campaign's webhooks enabled at that moment
 * (a disabled or repointed webhook stops receiving at once). When the campaign has no
 * enabled webhook at attempt time, the delivery is given up (`failed`, `last_error` says
 * why) without counting an attempt: disabling the webhook is how an operator stops events,
 * and an event kept for a webhook enabled later would reach a receiver that was not
 * registered when the reply came.
 *
 * Throughput (docs/decisions/0011-delivery-pipeline-and-logs.md): claims, the last check of each
 * claim before sending (kept for erasure, decision 0003) and completions each go to the
 * store in batches, one statement for many deliveries, and the next batch is claimed and
 * signed while the last is being sent. Each request and each delivery given up is logged
 * (`log-lines.ts`), without the event's personal data.
 */
import type { Clock } from '../domain/clock.ts';
import { type Logger, silentLogger } from '../http/logger.ts';
import type { DeliveryRecord, WebhookRecord } from '../store/records.ts';
import type { DeliveryClaimState, DeliveryCompletion, Store } from '../store/types.ts';
import { defaultSigner, type DeliverySigner, type PreparedAttempt, prepareAttempt } from './attempt.ts';
import { createBatcher } from './batcher.ts';
import { attemptLines, givenUpLine } from './log-lines.ts';
import { refusalBeforeAttempt } from './schedule.ts';
import { givenUp, settledAttempt } from './settle.ts';
import { deliveryPolicy, type WebhookTransport } from './types.ts';

export { deliveryAttemptHeader, type DeliverySigner, deliveryUserAgent } from './attempt.ts';

export interface DeliveryWorkerOptions {
  store: Store;
  transport: WebhookTransport;
  clock: Clock;
  /** Names this worker in the leases it takes; unique per worker. */
  workerId?: string;
  /** Deliveries claimed in one query. */
  batchSize?: number;
  /** Deliveries attempted at the same time. */
  concurrency?: number;
  /**
   * How long a claim holds: past it, the delivery is taken over (its worker is presumed
   * dead). Longer than an attempt can take (the 75 s timeout), or a slow attempt is repeated.
   */
  leaseMs?: number;
  signer?: DeliverySigner;
  /** A line per request of an attempt and per delivery given up (never the event's personal data). */
  logger?: Logger;
  /** Errors of the background loop (a store that cannot be reached); it carries on. */
  onError?: (error: unknown) => void;
}

export interface DeliveryCounts {
  /** Attempts made (one per delivery claimed and sent, however many webhooks it reached). */
  attempts: number;
  /** HTTP requests made. */
  requests: number;
  delivered: number;
  /** Attempts that failed and were scheduled again. */
  retried: number;
  failed: number;
  /**
   * Claims found lost: completions refused (taken over after the lease ran out), and claimed
   * deliveries not sent because, read again just before sending, they were cancelled (the
   * lead was erased) or taken over.
   */
  claimsLost: number;
}

export interface DeliveryWorker {
  readonly workerId: string;
  /** Running totals since the worker was made. */
  readonly counts: Readonly<DeliveryCounts>;
  /**
   * Attempts every delivery due at the clock's now, until none is due (retries scheduled on
   * the way fall later); returns the number of attempts made.
   */
  runDue(): Promise<number>;
  /** The earliest time a pending delivery is due (a retry, or a lapsed claim), or null. */
  nextDueAt(): Promise<Date | null>;
  /** A delivery was enqueued: the background loop runs at once instead of at its next poll. */
  notify(): void;
  /** Runs `runDue` in the background, then again on `notify()` or every `pollMs`. */
  start(options?: { pollMs?: number }): void;
  /** Stops claiming, and resolves once the attempts in flight are completed. */
  stop(): Promise<void>;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { store, transport, clock } = options;
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;
  const batchSize = options.batchSize ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? 64);
  // The next claim is made when fewer than this many claimed deliveries wait for a slot.
  const refillAt = Math.max(1, Math.floor(Math.min(batchSize, concurrency) / 2));
  const leaseMs = options.leaseMs ?? deliveryPolicy.timeoutMs + 60_000;
  const signer = options.signer ?? defaultSigner;
  const logger = options.logger ?? silentLogger;
  const onError = options.onError ?? ((error: unknown) => console.error('delivery worker:', error));
  const completions = createBatcher(async (batch: DeliveryCompletion[]) => {
    const moved = new Set(await store.deliveries.completeAttempts(batch));
    return batch.map((completion) => moved.has(completion.delivery_id));
  });
  // The last read of each claim before its requests leave: one read for every attempt ready
  // meanwhile, rather than a round trip per delivery.
  const claimChecks = createBatcher(async (batch: DeliveryRecord[]) => {
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
  const counts: DeliveryCounts = { attempts: 0, requests: 0, delivered: 0, retried: 0, failed: 0, claimsLost: 0 };

  let stopping = false;
  let loop: Promise<void> | null = null;
  let notified = false;
  let wake: (() => void) | null = null;
  /** Told by `notify()` while `runDue` runs: a delivery was enqueued, so look again now. */
  let enqueued: (() => void) | null = null;

  /** Logs the attempt's requests, writes the completion (batched), and counts what it came to. */
  async function complete(delivery: DeliveryRecord, completion: DeliveryCompletion): Promise<void> {
    if (logger !== silentLogger) for (const line of attemptLines(delivery, completion)) logger.log(line);
    const moved = await completions.add(completion);
    if (!moved) counts.claimsLost += 1;
    else if (completion.outcome.status === 'delivered') counts.delivered += 1;
    else if (completion.outcome.status === 'failed') counts.failed += 1;
    else counts.retried += 1;
    // Given up only once recorded: a completion refused (the claim was lost) gave nothing up.
    const givenUpEntry = moved && logger !== silentLogger ? givenUpLine(delivery, completion) : null;
    if (givenUpEntry !== null) logger.log(givenUpEntry);
  }

  /** The enabled webhooks of each campaign of a claimed batch: one read per campaign. */
  async function enabledWebhooks(claimed: DeliveryRecord[]): Promise<Map<string, WebhookRecord[]>> {
    const campaignIds = [...new Set(claimed.map((d) => d.campaign_id))];
    const lists = await Promise.all(campaignIds.map((id) => store.webhooks.listEnabled(id)));
    return new Map(campaignIds.map((id, i) => [id, lists[i] ?? []]));
  }

  /**
   * Attempts every delivery due, as a pipeline, so that the requests never wait for the
   * store: a claim (a batch of due deliveries, their webhooks, their signed requests) is
   * made while the previous batch is still being sent, and an attempt holds one of the
   * `concurrency` slots only from its last check of the claim to its answers. Completions
   * are written in batches behind it.
   */
  async function runDue(): Promise<number> {
    let made = 0;
    let failure: { error: unknown } | null = null;
    const fail = (error: unknown) => {
      failure ??= { error };
    };
    /** Claimed and signed, waiting for a slot. */
    const ready: { delivery: DeliveryRecord; prepared: PreparedAttempt }[] = [];
    /** Attempts from their last check to their answers: at most `concurrency`. */
    const inFlight = new Set<Promise<void>>();
    /** Completions waiting for their batched write. */
    const completing = new Set<Promise<void>>();
    /** The claim under way, if any. */
    let claiming: Promise<void> | null = null;
    /** The last claim found nothing due; `idle` when nothing else was under way either. */
    let nothingDue: { idle: boolean } | null = null;
    // One waiter for "something ended" (an attempt, a claim, a completion).
    let changed: (() => void) | null = null;
    const signal = () => {
      changed?.();
      changed = null;
    };
    enqueued = () => {
      nothingDue = null;
      signal();
    };
    const track = (set: Set<Promise<void>>, work: Promise<void>) => {
      const tracked = work.catch(fail);
      set.add(tracked);
      void tracked.finally(() => {
        set.delete(tracked);
        signal();
      });
    };

    const claimBatch = async () => {
      const now = clock.now();
      const claimed = await store.deliveries.claimDue({
        now: now.toISOString(),
        limit: batchSize,
        workerId,
        leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
      });
      if (claimed.length === 0) {
        nothingDue = { idle: inFlight.size === 0 && completing.size === 0 && ready.length === 0 };
        return;
      }
      const webhooks = await enabledWebhooks(claimed);
      const tools = { transport, signer, clock, onRequest: () => (counts.requests += 1) };
      await Promise.all(
        claimed.map(async (delivery) => {
          const targets = webhooks.get(delivery.campaign_id) ?? [];
          const refusal =
            refusalBeforeAttempt(delivery.attempts_made, new Date(delivery.created_at), now) ??
            (targets.length === 0 ? 'no enabled webhook at attempt time: the event was dropped' : null);
          if (refusal !== null)
            track(completing, complete(delivery, givenUp(workerId, delivery, refusal, clock.now())));
          else ready.push({ delivery, prepared: await prepareAttempt(tools, delivery, targets) });
        }),
      );
    };

    const sendOne = async (delivery: DeliveryRecord, prepared: PreparedAttempt) => {
      // Whether this worker still holds the claim, read just before sending: a delivery
      // cancelled meanwhile (its lead was erased) or taken over is not sent. The last read
      // before the requests leave: nothing is awaited between it and the sends.
      if (!(await claimChecks.add(delivery))) {
        counts.claimsLost += 1;
        return;
      }
      const result = await prepared.send();
      counts.attempts += 1;
      made += 1;
      track(completing, complete(delivery, settledAttempt(workerId, delivery, result)));
    };

    try {
      while (failure === null) {
        // Everything claimed is attempted, even when stopping: a claim left unsent would
        // cost the delivery an attempt when its lease runs out.
        while (inFlight.size < concurrency && ready.length > 0) {
          const { delivery, prepared } = ready.shift() as (typeof ready)[number];
          track(inFlight, sendOne(delivery, prepared));
        }
        const underWay = claiming !== null || inFlight.size > 0 || completing.size > 0 || ready.length > 0;
        if (nothingDue !== null && !underWay) {
          // Nothing was due: once what was under way is done, look once more (a delivery
          // enqueued meanwhile); stop when nothing was under way at the last look either.
          if ((nothingDue as { idle: boolean }).idle) break;
          nothingDue = null;
        }
        if (!stopping && claiming === null && nothingDue === null && ready.length < refillAt) {
          claiming = claimBatch()
            .catch(fail)
            .finally(() => {
              claiming = null;
              signal();
            });
          continue;
        }
        if (claiming === null && inFlight.size === 0 && completing.size === 0 && ready.length === 0) break;
        await new Promise<void>((resolve) => {
          changed = resolve;
        });
      }
    } finally {
      enqueued = null;
      // Never leave work behind: `stop()` and callers rely on runDue meaning "done". (After a
      // failure, deliveries claimed but not sent are left to their leases, and retried then.)
      await claiming;
      while (inFlight.size > 0 || completing.size > 0) await Promise.all([...inFlight, ...completing]);
    }
    if (failure !== null) throw (failure as { error: unknown }).error;
    return made;
  }

  return {
    workerId,
    counts,
    runDue,
    async nextDueAt() {
      const at = await store.deliveries.nextDueAt();
      return at === null ? null : new Date(at);
    },
    notify() {
      notified = true;
      wake?.();
      enqueued?.();
    },
    start({ pollMs = 1_000 } = {}) {
      if (loop !== null) return;
      stopping = false;
      loop = (async () => {
        while (!stopping) {
          notified = false;
          try {
            await runDue();
          } catch (error) {
            onError(error);
          }
          if (stopping || notified) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = null;
        }
      })();
    },
    async stop() {
      stopping = true;
      wake?.();
      await loop;
      loop = null;
      stopping = false;
    },
  };
}
