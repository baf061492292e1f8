/**
 * `serve`'s purge of stored `Idempotency-Key` answers whose 24 hours are over
 * (`IdempotencyStore.purgeExpired`): a new claim of the same key replaced one, but nothing else
 * removed them, so every answer the server ever stored (a lead's view among them) stayed in the
 * database, and every erasure searched them all (decision 0003, "Stored answers"). Once after
 * listening, then every `intervalMs`, by the wall clock (the expiry's, decision 0002).
 */
import type { Logger } from '../http/logger.ts';
import type { Store } from '../store/types.ts';

export interface ExpiredAnswersTimes {
  /** After listening (default 5 s). */
  firstMs?: number;
  /** Then every (default 10 minutes). */
  intervalMs?: number;
}

export interface ExpiredAnswersPurge {
  /** Stops the timer and waits for a purge under way. */
  stop(): Promise<void>;
}

export function purgeExpiredAnswers(
  store: Store,
  logger: Logger,
  { firstMs = 5000, intervalMs = 600_000 }: ExpiredAnswersTimes = {},
  now: () => Date = () => new Date(),
): ExpiredAnswersPurge {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  const purge = async () => {
    try {
      const purged = await store.idempotency.purgeExpired(now().toISOString());
      if (purged > 0) logger.log({ level: 'info', message: 'expired stored answers deleted', answers: purged });
    } catch (error) {
      // They stay until the next purge; replays never return them either way.
      logger.log({ level: 'warn', message: 'expired stored answers not deleted', error: String(error) });
    }
  };
  const schedule = (ms: number) => {
    // Never what keeps the process alive.
    timer = setTimeout(() => {
      running = purge().finally(() => {
        running = undefined;
        if (!stopped) schedule(intervalMs);
      });
    }, ms).unref();
  };
  schedule(firstMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
