/**
 * Writes attempt completions to the store in batches: one write in flight at a time, and the
 * completions that arrive meanwhile go together in the next. Idle, a completion is written at
 * once; under load, one statement carries hundreds, which is what lets a worker on PostgreSQL
 * keep up with thousands of deliveries a second.
 */
import type { DeliveryCompletion } from '../store/types.ts';

interface Waiting {
  completion: DeliveryCompletion;
  settle: (moved: boolean) => void;
  fail: (error: unknown) => void;
}

export interface CompletionBatcher {
  /** Resolves to whether the delivery moved (the claim still held), once written. */
  add(completion: DeliveryCompletion): Promise<boolean>;
}

export function createCompletionBatcher(
  write: (completions: DeliveryCompletion[]) => Promise<string[]>,
  maxBatch = 500,
): CompletionBatcher {
  const queue: Waiting[] = [];
  let writing = false;

  const drain = async () => {
    writing = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const moved = new Set(await write(batch.map((w) => w.completion)));
        for (const w of batch) w.settle(moved.has(w.completion.delivery_id));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    writing = false;
  };

  return {
    add(completion) {
      return new Promise((settle, fail) => {
        queue.push({ completion, settle, fail });
        if (!writing) void drain();
      });
    },
  };
}
