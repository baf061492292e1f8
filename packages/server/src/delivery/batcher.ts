/**
 * Groups the worker's store calls into batches: one call in flight at a time, and the items
 * that arrive meanwhile go together in the next. Idle, an item is handled at once; under load,
 * one statement carries hundreds, which is what lets a worker on PostgreSQL keep up with
 * thousands of deliveries a second on a pool of a few connections. The worker has two: the
 * claims read again before sending, and the completions.
 */

interface Waiting<Item, Result> {
  item: Item;
  settle: (result: Result) => void;
  fail: (error: unknown) => void;
}

export interface Batcher<Item, Result> {
  /** Resolves to the item's result once its batch is handled; rejects if the batch failed. */
  add(item: Item): Promise<Result>;
}

/** `handle` gets a batch and answers one result per item, in the batch's order. */
export function createBatcher<Item, Result>(
  handle: (items: Item[]) => Promise<Result[]>,
  maxBatch = 500,
): Batcher<Item, Result> {
  const queue: Waiting<Item, Result>[] = [];
  let handling = false;

  const drain = async () => {
    handling = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await handle(batch.map((w) => w.item));
        for (const [i, w] of batch.entries()) w.settle(results[i] as Result);
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    handling = false;
  };

  return {
    add(item) {
      return new Promise((settle, fail) => {
        queue.push({ item, settle, fail });
        if (!handling) void drain();
      });
    },
  };
}
