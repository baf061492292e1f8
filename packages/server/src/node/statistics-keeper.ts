/**
 * `serve`'s keeper of the tables, doing what PostgreSQL's autovacuum does where it does not
 * run (PGlite always, PostgreSQL where it is off): the planner's statistics gathered
 * (`store.refreshStatistics()`, store/sql/planner-statistics.ts), then dead row versions
 * vacuumed (`store.vacuumWhereNeeded()`, store/sql/vacuum-where-needed.ts), whose `ANALYZE`
 * leaves out the tables the check has just analyzed. A check runs a second after the server
 * listens (data written while it was down, a restore, a bulk load), every `intervalMs` (rows
 * written through the API), and `settleMs` after the last of a run of bulk writes
 * (`bulkWritten()`: a batch import), so that the pages read right after an import are planned
 * on statistics that count it rather than waiting for the next interval. A check that finds
 * nothing to do is two short catalog reads; a table is vacuumed or analyzed only when it needs
 * it.
 */
import type { Logger } from '../http/logger.ts';
import type { Store } from '../store/types.ts';

export interface StatisticsKeeper {
  /**
   * Many rows were just written and committed: check `settleMs` after the last such call
   * (inside the idempotency step's transaction the app holds the call until it commits:
   * `http/middleware/run-handler.ts`). Trailing, so that
   * an import of many batches is not slowed by an `ANALYZE` after each one; the interval's
   * checks go on meanwhile.
   */
  bulkWritten(): void;
  /** Stops the timers and waits for a check under way. */
  stop(): Promise<void>;
}

export interface StatisticsKeeperTimes {
  /** After listening (default 1 s). */
  firstMs?: number;
  /** Then every (default 30 s). */
  intervalMs?: number;
  /** After the last bulk write (default 1 s; told once the write has committed). */
  settleMs?: number;
}

export function keepStatistics(
  store: Store,
  logger: Logger,
  { firstMs = 1000, intervalMs = 30_000, settleMs = 1000 }: StatisticsKeeperTimes = {},
): StatisticsKeeper {
  let stopped = false;
  let running: Promise<void> | undefined;
  /** A check was asked for while one ran: run once more after it (its catalog read may predate the write). */
  let again = false;
  let interval: ReturnType<typeof setTimeout> | undefined;
  let settle: ReturnType<typeof setTimeout> | undefined;
  /** Runs `work`, telling the operator what it did (or that it failed: the next check tries again); the tables. */
  const step = async (work: () => Promise<string[]>, done: string, failed: string) => {
    const started = performance.now();
    try {
      const tables = await work();
      if (tables.length > 0) {
        const durationMs = Math.round(performance.now() - started);
        logger.log({ level: 'info', message: done, tables, duration_ms: durationMs });
      }
      return tables;
    } catch (error) {
      logger.log({ level: 'warn', message: failed, error: String(error) });
      return [];
    }
  };
  const check = async () => {
    const analyzed = await step(
      () => store.refreshStatistics(),
      'planner statistics gathered',
      'planner statistics not gathered',
    );
    // Not analyzed again in its vacuum: a writer's counts may reach PostgreSQL after the
    // `ANALYZE` that already sampled its rows.
    await step(() => store.vacuumWhereNeeded(analyzed), 'tables vacuumed', 'tables not vacuumed');
  };
  /** One check at a time, whichever timer asks. */
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = check().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  // Never what keeps the process alive.
  const later = (ms: number, work: () => void) => setTimeout(work, ms).unref();
  const scheduleInterval = (ms: number) => {
    interval = later(ms, () => {
      run();
      if (!stopped) scheduleInterval(intervalMs);
    });
  };
  scheduleInterval(firstMs);
  return {
    bulkWritten() {
      if (stopped) return;
      clearTimeout(settle);
      settle = later(settleMs, run);
    },
    async stop() {
      stopped = true;
      clearTimeout(interval);
      clearTimeout(settle);
      await running;
    },
  };
}
