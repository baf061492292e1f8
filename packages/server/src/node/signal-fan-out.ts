/**
 * One `abort` listener per signal, however many attempts wait on it. The delivery worker gives
 * every attempt in flight the same signal (its stop); a listener per attempt made Node warn of
 * a leak ("MaxListenersExceededWarning ... 11 abort listeners") once more than ten were in
 * flight, in the server's output, though each was removed when its attempt settled.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/** Runs `onAbort` when `signal` aborts; the function returned stops that (call it once settled). */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  if (signal.aborted) {
    onAbort();
    return () => undefined;
  }
  let handlers = waiting.get(signal);
  if (!handlers) {
    const created = new Set<() => void>();
    handlers = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const handler of created) {
          // One waiter that throws stops none of the others; its error is reported as a
          // listener's of its own would have been.
          try {
            handler();
          } catch (error) {
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      },
      { once: true },
    );
  }
  const own = handlers;
  own.add(onAbort);
  return () => {
    own.delete(onAbort);
  };
}
