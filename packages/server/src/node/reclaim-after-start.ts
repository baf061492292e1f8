/**
 * `serve`'s vacuum of the tables an erasure writes, once after it listens
 * (`Store.reclaimErased`, decision 0003). Each erasure vacuums after it commits, from the
 * process that erased; a process stopped between the commit and that vacuum (killed,
 * crashed, its machine gone) left the erased values in dead row versions, and nothing else
 * removes a handful of them: the keeper of the tables vacuums only where autovacuum would,
 * after many dead rows (found by an attack on erasure). A vacuum of pages with nothing dead
 * reads only the pages changed since the last one, so on most starts it does little.
 */
import type { Logger } from '../http/logger.ts';
import type { Store } from '../store/types.ts';

export interface ReclaimAfterStart {
  /** Cancels the vacuum if it has not begun, else waits for it. */
  stop(): Promise<void>;
}

/** @param firstMs after listening (default 3 s: after the keeper's first check, before the expired answers' purge). */
export function reclaimAfterStart(store: Store, logger: Logger, firstMs = 3000): ReclaimAfterStart {
  let running: Promise<void> | undefined;
  // Never what keeps the process alive.
  const timer = setTimeout(() => {
    running = store
      .reclaimErased((entry) => logger.log(entry))
      .catch((error: unknown) => {
        // The next erasure's vacuum, or the operator's, removes them.
        logger.log({ level: 'warn', message: 'erased tables not vacuumed after start', error: String(error) });
      });
  }, firstMs).unref();
  return {
    async stop() {
      clearTimeout(timer);
      await running;
    },
  };
}
