/**
 * `serve`'s keeper of the planner's statistics: `store.refreshStatistics()` a second after the
 * server listens (data written while it was down, a restore, a bulk load), then every
 * `intervalMs` (rows written through the API). A check that finds nothing stale is one short
 * transaction (a lock and a catalog query); a table is analyzed only when it needs it
 * (store/sql/planner-statistics.ts).
 */
import type { Logger } from '../http/logger.ts';
import type { Store } from '../store/types.ts';

export interface StatisticsKeeper {
  /** Stops the timer and waits for a check under way. */
  stop(): Promise<void>;
}

export function keepStatistics(
  store: Store,
  logger: Logger,
  { firstMs = 1000, intervalMs = 30_000 }: { firstMs?: number; intervalMs?: number } = {},
): StatisticsKeeper {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const started = performance.now();
    try {
      const tables = await store.refreshStatistics();
      if (tables.length > 0) {
        const durationMs = Math.round(performance.now() - started);
        logger.log({ level: 'info', message: 'planner statistics gathered', tables, duration_ms: durationMs });
      }
    } catch (error) {
      // Plans stay on what statistics there are; the next check tries again.
      logger.log({ level: 'warn', message: 'planner statistics not gathered', error: String(error) });
    }
  };
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      running = check().finally(() => {
        if (!stopped) schedule(intervalMs);
      });
    }, ms);
    // Never what keeps the process alive.
    timer.unref();
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
