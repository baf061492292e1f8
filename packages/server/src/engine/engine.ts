/**
 * The service's engine: what makes the reference server a service rather than a store.
 * It runs due sequence steps (`run-steps.ts`) and drains the `prospect_response` outbox
 * (the delivery worker), on a timer in a running server, and at every due time on the way
 * when the sandbox clock is advanced, so that a campaign's weeks play out in order.
 */
import type { Clock } from '../domain/clock.ts';
import { SandboxClock } from '../domain/clock.ts';
import { type Logger, silentLogger } from '../http/logger.ts';
import type { Store } from '../store/types.ts';
import type { OutboundChannel } from './channel.ts';
import { nextStepDueAfter, runDueSteps, type TooLongSteps } from './run-steps.ts';

/** What the engine needs of the delivery worker. */
export interface DeliveryRunner {
  /** Runs the worker's own loop (a running server): at once on `notify()`, and every `pollMs`. */
  start(options?: { pollMs?: number }): void;
  /** Stops, once every attempt under way ended; when `abandon` aborts, those still in flight are cut short and handed back. */
  stop(options?: { abandon?: AbortSignal }): Promise<void>;
  /** Attempts every delivery due at the clock's now; returns how many deliveries were attempted. */
  runDue(): Promise<number>;
  /** The earliest pending attempt's time, or null; with `skipLiveClaims`, of those no worker is making now. */
  nextDueAt(options?: { skipLiveClaims?: boolean }): Promise<Date | null>;
  /** A delivery was enqueued: attempt it soon (the running server's loop). */
  notify(): void;
}

export interface EngineRound {
  steps_run: number;
  deliveries_attempted: number;
}

export interface Engine {
  readonly clock: Clock;
  readonly channel: OutboundChannel;
  readonly deliveries: DeliveryRunner;
  /** One round at the clock's now. */
  runDue(): Promise<EngineRound>;
  /**
   * Sandbox only: moves the sandbox clock to `target`, running every step and delivery
   * attempt that comes due on the way at its own time, in time order. A function is given
   * the clock's now once it has caught up with the store and the advances queued before
   * (`{ days: 1 }` from another server's or another request's advance, not from a now
   * that is behind); it may throw to refuse.
   */
  advanceTo(target: Date | ((now: Date) => Date)): Promise<EngineRound>;
  /**
   * Sandbox mode: moves the sandbox clock to the time saved in the store, if it is ahead
   * (a restarted server, or another server on the database that advanced it).
   */
  syncClock(): Promise<void>;
  /**
   * A running server: rounds every `intervalMs`, and the delivery worker's own loop (at once
   * on a new reply, and every `deliveryPollMs` for retries), until `stop()`.
   */
  start(options?: { intervalMs?: number; deliveryPollMs?: number }): void;
  /**
   * Stops the rounds and the delivery worker, once what is under way ended. When `abandon`
   * aborts first, delivery attempts still waiting for a receiver are cut short and handed
   * back for the next start (`DeliveryWorker.stop`), so a slow receiver cannot hold a
   * stopping server for its 75 seconds.
   */
  stop(options?: { abandon?: AbortSignal }): Promise<void>;
}

/** More due times than this in one advance means something keeps coming due at once: stop. */
const maxStopsPerAdvance = 100_000;

export function createEngine(options: {
  store: Store;
  clock: Clock;
  channel: OutboundChannel;
  deliveries: DeliveryRunner;
  logger?: Logger;
}): Engine {
  const { store, clock, channel, deliveries } = options;
  const logger = options.logger ?? silentLogger;
  /** Leads whose step's message renders too long, told once and tried again later (run-steps.ts). */
  const tooLong: TooLongSteps = new Map();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  /** A stop is under way: a round reaching its deliveries now leaves them to the next start. */
  let halting = false;
  let deliveryPollMs = 1000;

  // Rounds never overlap in one process: the timer, an advance and a test's call queue up.
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const result = running.then(work, work);
    running = result.catch(() => undefined);
    return result;
  };

  const syncClock = async () => {
    if (clock instanceof SandboxClock) clock.catchUp(await store.sandbox.clockOffset());
  };

  const round = async (): Promise<EngineRound> => {
    await syncClock();
    const steps_run = await runDueSteps({ store, channel, logger, tooLong }, clock.now());
    const deliveries_attempted = halting ? 0 : await deliveries.runDue();
    return { steps_run, deliveries_attempted };
  };

  const engine: Engine = {
    clock,
    channel,
    deliveries,
    runDue: () => exclusive(round),
    syncClock: () => exclusive(syncClock),
    advanceTo(target) {
      return exclusive(async () => {
        if (!(clock instanceof SandboxClock)) throw new Error('only the sandbox clock can be advanced');
        await syncClock();
        const to = typeof target === 'function' ? target(clock.now()) : target;
        // The worker's loop pauses (its attempts in flight finish first) while the advance
        // makes every attempt itself, each at its own time on the way: a retry due in 15
        // minutes must be made after its attempt ended, not beside it.
        const resume = !stopped;
        if (resume) await deliveries.stop();
        try {
          return await advance(clock, to);
        } finally {
          if (resume && !stopped) deliveries.start({ pollMs: deliveryPollMs });
        }
      });
    },
    start(options = {}) {
      if (!stopped) return;
      stopped = false;
      deliveryPollMs = options.deliveryPollMs ?? deliveryPollMs;
      const intervalMs = options.intervalMs ?? 1000;
      deliveries.start({ pollMs: deliveryPollMs });
      const tick = () => {
        void engine
          .runDue()
          // A failed round is retried at the next tick; the operator sees why.
          .catch((error: unknown) =>
            logger.log({ level: 'error', message: 'engine round failed', error: String(error) }),
          )
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, intervalMs);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop(options = {}) {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      // The worker is told at once, not after the round under way: that round may be waiting
      // on a receiver too (the worker's stop waits for every run of it, and `abandon` reaches
      // them all), and a round that has not reached its deliveries yet skips them.
      halting = true;
      try {
        const stoppedDeliveries = deliveries.stop(options);
        await running;
        await stoppedDeliveries;
      } finally {
        halting = false;
      }
    },
  };

  async function advance(sandboxClock: SandboxClock, target: Date): Promise<EngineRound> {
    const total: EngineRound = { steps_run: 0, deliveries_attempted: 0 };
    const add = (done: EngineRound) => {
      total.steps_run += done.steps_run;
      total.deliveries_attempted += done.deliveries_attempted;
    };
    add(await round());
    for (let stop = 0; stop < maxStopsPerAdvance; stop += 1) {
      const now = sandboxClock.now();
      // This server's worker is paused; an attempt another server has out is its own to
      // finish, its lease running in real time: not a due time for this advance to stop at.
      const next = earliest(await nextStepDueAfter(store, now), await deliveries.nextDueAt({ skipLiveClaims: true }));
      if (next === null || next.getTime() > target.getTime()) break;
      sandboxClock.advanceTo(next.getTime() > now.getTime() ? next : new Date(now.getTime() + 1));
      add(await round());
    }
    sandboxClock.advanceTo(target);
    // Saved, so that a restart and the other servers on the database keep this time.
    await store.sandbox.saveClockOffset(sandboxClock.offsetMs);
    add(await round());
    return total;
  }

  return engine;
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}
