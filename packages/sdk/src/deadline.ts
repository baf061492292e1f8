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
  /** Resolves after `ms`, or rejects at the deadline or on abort. */
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
    if (stop) return;
    stop = error;
    reject(error);
    controller.abort(error);
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
    // The wait's timer is cleared when the call stops, so that it keeps no process alive.
    sleep: (ms) => {
      let wait: ReturnType<typeof setTimeout> | undefined;
      return race(() => new Promise<void>((resolve) => (wait = setTimeout(resolve, ms)))).finally(() =>
        clearTimeout(wait),
      );
    },
    race,
    done: () => {
      unwatch(check);
      signal?.removeEventListener('abort', abort);
    },
  };
}
