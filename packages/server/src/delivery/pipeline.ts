/**
 * How the worker's steps run together, so that requests never wait for the store: the next
 * claim is made while the last batch is still being sent, an item holds one of the
 * `concurrency` slots only while it is being sent, and what settles items runs behind, its
 * writes batched. It knows nothing of deliveries: the worker gives it the steps (claim,
 * send) and counts what they did.
 */

/** Where a claim hands what it took, each as soon as it is known. */
export interface PipelineSink<Item> {
  /** Ready to send, waiting for a slot. */
  ready(item: Item): void;
  /** Work that finishes an item without sending it (given up before its attempt). */
  settling(work: Promise<void>): void;
  /** The claim found nothing due. */
  none(): void;
}

export interface PipelineSteps<Item> {
  claim(sink: PipelineSink<Item>): Promise<void>;
  /** Sends one item, holding a slot; the work that settles it afterwards goes to `settling`. */
  send(item: Item, settling: (work: Promise<void>) => void): Promise<void>;
}

export interface PipelineControl {
  concurrency: number;
  /** The next claim is made when fewer than this many claimed items wait for a slot. */
  refillAt: number;
  /** Read before each claim: once true, nothing more is claimed (what was claimed is still sent). */
  stopping(): boolean;
  /** Given, for the run's length, what to call when new work may be due (then null). */
  onNewWork(poke: (() => void) | null): void;
}

/**
 * Runs claims and sends until nothing is due and nothing is under way. On a failure of a
 * step it stops claiming, waits for what is under way and rethrows the first failure.
 */
export async function runPipeline<Item>(steps: PipelineSteps<Item>, control: PipelineControl): Promise<void> {
  const { concurrency, refillAt } = control;
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown) => {
    failure ??= { error };
  };
  /** Claimed, waiting for a slot. */
  const ready: Item[] = [];
  /** Items being sent: at most `concurrency`. */
  const inFlight = new Set<Promise<void>>();
  /** Settlements waiting for their batched write. */
  const completing = new Set<Promise<void>>();
  /** The claim under way, if any. */
  let claiming: Promise<void> | null = null;
  /** The last claim found nothing due; `idle` when nothing else was under way either. */
  let nothingDue: { idle: boolean } | null = null;
  // One waiter for "something ended" (a send, a claim, a settlement).
  let changed: (() => void) | null = null;
  const signal = () => {
    changed?.();
    changed = null;
  };
  control.onNewWork(() => {
    nothingDue = null;
    signal();
  });
  const track = (set: Set<Promise<void>>, work: Promise<void>) => {
    const tracked = work.catch(fail);
    set.add(tracked);
    void tracked.finally(() => {
      set.delete(tracked);
      signal();
    });
  };
  const settling = (work: Promise<void>) => track(completing, work);
  const sink: PipelineSink<Item> = {
    ready: (item) => ready.push(item),
    settling,
    none: () => {
      nothingDue = { idle: inFlight.size === 0 && completing.size === 0 && ready.length === 0 };
    },
  };

  try {
    while (failure === null) {
      // Everything claimed is sent, even when stopping: a claim left unsent would cost the
      // item an attempt when its lease runs out.
      while (inFlight.size < concurrency && ready.length > 0) {
        track(inFlight, steps.send(ready.shift() as Item, settling));
      }
      const underWay = claiming !== null || inFlight.size > 0 || completing.size > 0 || ready.length > 0;
      if (nothingDue !== null && !underWay) {
        // Nothing was due: once what was under way is done, look once more (work enqueued
        // meanwhile); stop when nothing was under way at the last look either.
        if ((nothingDue as { idle: boolean }).idle) break;
        nothingDue = null;
      }
      if (!control.stopping() && claiming === null && nothingDue === null && ready.length < refillAt) {
        claiming = steps
          .claim(sink)
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
    control.onNewWork(null);
    // Never leave work behind: callers rely on a finished run meaning "done". (After a
    // failure, items claimed but not sent are left to their leases, and retried then.)
    await claiming;
    while (inFlight.size > 0 || completing.size > 0) await Promise.all([...inFlight, ...completing]);
  }
  if (failure !== null) throw (failure as { error: unknown }).error;
}
