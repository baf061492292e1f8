/**
 * The delivery worker: drains the `prospect_response` outbox (section 6) in three steps,
 * one file each: claim (`claim.ts`: batches of due deliveries under a lease, signed for
 * their campaign's enabled webhooks), attempt (`attempt.ts`: the signed requests) and settle
 * (`settle.ts`: delivered, retried or failed, written and logged). `pipeline.ts` runs them
 * together; this file composes them and runs them in the background. Web-standard (no Node
 * import): the transport it is given does the HTTP.
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
import { type Clock, wallClockOf } from '../domain/clock.ts';
import { type Logger, silentLogger } from '../http/logger.ts';
import type { Store } from '../store/types.ts';
import { defaultSigner, type DeliverySigner } from './attempt.ts';
import { type ClaimedDelivery, createClaimer } from './claim.ts';
import { runPipeline } from './pipeline.ts';
import { createSettler, givenUp, handedBack, settledAttempt } from './settle.ts';
import { type DeliveryCounts, deliveryPolicy, type WebhookTransport } from './types.ts';

export { deliveryAttemptHeader, type DeliverySigner, deliveryUserAgent } from './attempt.ts';
export type { DeliveryCounts } from './types.ts';

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

export interface DeliveryWorker {
  readonly workerId: string;
  /** Running totals since the worker was made. */
  readonly counts: Readonly<DeliveryCounts>;
  /**
   * Attempts every delivery due at the clock's now, until none is due (retries scheduled on
   * the way fall later); returns the number of attempts made.
   */
  runDue(): Promise<number>;
  /**
   * The earliest time a pending delivery is due (a retry, or a lapsed claim), or null. With
   * `skipLiveClaims`, deliveries whose claim is live now (in real time) are left out: another
   * worker is making their attempt.
   */
  nextDueAt(options?: { skipLiveClaims?: boolean }): Promise<Date | null>;
  /** A delivery was enqueued: the background loop runs at once instead of at its next poll. */
  notify(): void;
  /** Runs `runDue` in the background, then again on `notify()` or every `pollMs`. */
  start(options?: { pollMs?: number }): void;
  /**
   * Stops claiming, and resolves once the attempts in flight are completed (every run's,
   * the background loop's and any `runDue` under way). When `abandon` aborts first (the
   * server's shutdown grace ran out), the attempts still waiting for a receiver are cut
   * short (their requests aborted through the transport) and handed back: pending, due at
   * once, not counted (`settle.ts`, `handedBack`), so the next start makes them.
   */
  stop(options?: { abandon?: AbortSignal }): Promise<void>;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { store, clock } = options;
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;
  const batchSize = options.batchSize ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? 64);
  // The next claim is made when fewer than this many claimed deliveries wait for a slot.
  const refillAt = Math.max(1, Math.floor(Math.min(batchSize, concurrency) / 2));
  const onError = options.onError ?? ((error: unknown) => console.error('delivery worker:', error));
  const counts: DeliveryCounts = {
    attempts: 0,
    requests: 0,
    delivered: 0,
    retried: 0,
    handedBack: 0,
    failed: 0,
    claimsLost: 0,
  };
  const claimer = createClaimer({
    store,
    workerId,
    clock,
    batchSize,
    leaseMs: options.leaseMs ?? deliveryPolicy.timeoutMs + 60_000,
    transport: options.transport,
    signer: options.signer ?? defaultSigner,
    onRequest: () => (counts.requests += 1),
  });
  const settle = createSettler({ store, logger: options.logger ?? silentLogger, counts });

  let stopping = false;
  /** Aborted when a stop gives up waiting: the requests in flight are dropped (`stop`). */
  let abandon = new AbortController();
  /** Every `runDue` under way: a stop waits for all of them, not only the loop's. */
  const runs = new Set<Promise<number>>();
  let loop: Promise<void> | null = null;
  let notified = false;
  let wake: (() => void) | null = null;
  /** Told by `notify()` while `runDue` runs: a delivery was enqueued, so look again now. */
  let enqueued: (() => void) | null = null;

  /** One run of the pipeline, kept in `runs` while it lasts, so that a stop can wait for it. */
  function runDue(): Promise<number> {
    const run = runPipelineOnce();
    runs.add(run);
    void run.then(
      () => runs.delete(run),
      () => runs.delete(run),
    );
    return run;
  }

  /** Attempts every delivery due: claim, attempt and settle, run together by `pipeline.ts`. */
  async function runPipelineOnce(): Promise<number> {
    let made = 0;
    // This run's: a later start makes a new one, which a request of this run never sees.
    const { signal } = abandon;
    await runPipeline<ClaimedDelivery>(
      {
        claim: (sink) =>
          claimer.claimBatch({
            ready: sink.ready,
            refused: (delivery, reason) =>
              sink.settling(settle(delivery, givenUp(workerId, delivery, reason, clock.now()))),
            none: sink.none,
          }),
        async send({ delivery, prepared }, settling) {
          // Claimed but not sent when the stop gave up waiting: handed back untried.
          if (signal.aborted) {
            settling(settle(delivery, handedBack(workerId, delivery, clock.now())));
            return;
          }
          // The last read of the claim before the requests leave: nothing is awaited between it and the sends.
          if (!(await claimer.stillHeld(delivery))) {
            counts.claimsLost += 1;
            return;
          }
          const result = await prepared.send(signal);
          // Cut short with no receiver having taken it: not an attempt the receivers failed.
          if (result.interrupted && !result.rows.some((row) => row.ok)) {
            counts.handedBack += 1;
            settling(settle(delivery, handedBack(workerId, delivery, clock.now())));
            return;
          }
          counts.attempts += 1;
          made += 1;
          settling(settle(delivery, settledAttempt(workerId, delivery, result)));
        },
      },
      {
        concurrency,
        refillAt,
        // Once abandoned, nothing more is claimed, even by a run the stop did not start.
        stopping: () => stopping || signal.aborted,
        onNewWork: (poke) => (enqueued = poke),
      },
    );
    return made;
  }

  return {
    workerId,
    counts,
    runDue,
    async nextDueAt({ skipLiveClaims = false } = {}) {
      const liveClaimsAt = skipLiveClaims ? wallClockOf(clock).now().toISOString() : undefined;
      const at = await store.deliveries.nextDueAt(liveClaimsAt === undefined ? {} : { liveClaimsAt });
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
    async stop({ abandon: giveUp } = {}) {
      stopping = true;
      wake?.();
      const cut = abandon;
      const onGiveUp = () => cut.abort();
      if (giveUp?.aborted) onGiveUp();
      else giveUp?.addEventListener('abort', onGiveUp, { once: true });
      try {
        await loop;
        while (runs.size > 0) await Promise.allSettled([...runs]);
      } finally {
        giveUp?.removeEventListener('abort', onGiveUp);
        loop = null;
        stopping = false;
        if (cut.signal.aborted) abandon = new AbortController();
      }
    },
  };
}
