/**
 * One deadline per call, across every attempt and every wait between them, and the
 * caller's AbortSignal.
 *
 * Each call has one AbortController of its own, whose signal every attempt's fetch gets:
 * at the deadline (read from the shared clock of src/clock.ts) or when the caller's signal
 * aborts, the controller aborts too, so that the request in flight, or the body being
 * read, is torn down and its socket freed, rather than left open until the server answers.
 * The call then rejects with OcsTimeoutError or OcsAbortError. fetch and body reads reject
 * with the signal's reason, which is that error, but only when fetch honours the signal: a
 * custom fetch (a mock's, a wrapper) may not, so `race` starts nothing once the call has
 * stopped and rejects as soon as it stops, whatever the fetch does.
 */
import { unwatch, watch } from './clock.ts';
import { OcsAbortError, OcsTimeoutError, type OcsError } from './errors.ts';

export interface Deadline {
  /** Aborts at the deadline or with the caller's signal: for every fetch of the call. */
  readonly signal: AbortSignal;
  /** Epoch ms of the deadline. */
  readonly at: number;
  /** The SDK's error when the call was aborted or timed out, else undefined. */
  stopped(): OcsError | undefined;
  /** Resolves after `ms` (any number of them), or rejects at the deadline or on abort. */
  sleep(ms: number): Promise<void>;
  /**
   * `start()`'s promise, or the SDK's error as soon as the call stops; `start` is not
   * called when the call has stopped already (nothing is sent).
   */
  race<T>(start: () => Promise<T>): Promise<T>;
  /** Stops watching the clock and the caller's signal. */
  done(): void;
}

export function startDeadline(timeoutMs: number, signal?: AbortSignal | null): Deadline {
  let reject: (error: OcsError) => void;
  // Rejects when the call stops, for `race`; handled here, as a call may race nothing.
  const stopped = new Promise<never>((_, fail) => (reject = fail));
  stopped.catch(() => {});
  const controller = new AbortController();
  const at = Date.now() + timeoutMs;
  /**
   * The error that stopped the call, kept here rather than read from the signal's `reason`,
   * which a polyfilled AbortController (the `abort-controller` package) does not keep.
   */
  let stop: OcsError | undefined;
  // fetch and body reads reject with the reason, the SDK's error, when the signal aborts.
  // The first error stops the call; recorded before `abort`, whose listeners may stop it
  // again (a fetch that aborts the caller's signal in turn), so that the first one wins.
  const fire = (error: OcsError) => {
    if (!stop) {
      reject((stop = error));
      controller.abort(error);
    }
  };
  const abort = () => fire(new OcsAbortError('Aborted by your AbortSignal.', { cause: signal?.reason }));
  const check = (now: number) => {
    if (now < at) return;
    unwatch(check);
    fire(new OcsTimeoutError(`Timed out after ${timeoutMs} ms; raise timeoutMs.`));
  };
  const race = <T>(start: () => Promise<T>): Promise<T> => (stop ? stopped : Promise.race([start(), stopped]));
  watch(check);
  signal?.addEventListener('abort', abort);
  if (signal?.aborted) abort();
  return {
    signal: controller.signal,
    at,
    stopped: () => stop,
    // On the deadline's clock, not a timer: `setTimeout` fires at once for a delay above
    // 2^31-1 ms (24.8 days), in every runtime, so a `Retry-After` that long, allowed by
    // `timeoutMs` and `maxRetryAfterMs` of Infinity, would retry at once. The clock compares
    // epoch ms, which have no such limit; a wait ends up to 50 ms late, as the deadline does.
    // Unwatched when the call stops, so that it keeps no process alive.
    sleep: (ms) => {
      ms += Date.now(); // now the epoch ms to wake at
      let wake: (now: number) => unknown;
      return race(() => new Promise<void>((resolve) => watch((wake = (now) => now < ms || resolve())))).finally(() =>
        unwatch(wake),
      );
    },
    race,
    done: () => {
      unwatch(check);
      signal?.removeEventListener('abort', abort);
    },
  };
}
