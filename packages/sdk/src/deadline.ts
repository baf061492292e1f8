/**
 * One deadline per call, across every attempt and every wait between them, and the
 * caller's AbortSignal.
 *
 * Each call has one AbortController of its own, whose signal every attempt's fetch gets:
 * at the deadline (read from the shared clock of src/clock.ts) or when the caller's signal
 * aborts, the controller aborts too, so that the request in flight, or the body being
 * read, is torn down and its socket freed, rather than left open until the server answers.
 * The call then rejects with OcsTimeoutError or OcsAbortError.
 */
import { unwatch, watch } from './clock.ts';
import { OcsAbortError, OcsTimeoutError, type OcsError } from './errors.ts';

export interface Deadline {
  /** Aborts at the deadline or with the caller's signal: for every fetch of the call. */
  readonly signal: AbortSignal;
  /** Epoch ms of the deadline. */
  readonly at: number;
  /** Settles like `promise`, or rejects with OcsTimeoutError or OcsAbortError first. */
  race<T>(promise: Promise<T>): Promise<T>;
  /** The SDK's error when the call was aborted or timed out, else undefined. */
  stopped(): OcsError | undefined;
  /** Resolves after `ms`, or rejects at the deadline or on abort. */
  sleep(ms: number): Promise<void>;
  /** Stops watching the clock and the caller's signal. */
  done(): void;
}

export function startDeadline(timeoutMs: number, signal?: AbortSignal | null): Deadline {
  let stop: OcsError | undefined;
  let reject!: (error: OcsError) => void;
  const stopped = new Promise<never>((_, fail) => (reject = fail));
  stopped.catch(() => {}); // only races observe it
  const controller = new AbortController();
  const at = Date.now() + timeoutMs;
  const fire = (error: OcsError) => {
    if (stop) return;
    reject((stop = error));
    controller.abort(error);
  };
  const abort = () => fire(new OcsAbortError('Aborted by your AbortSignal.', { cause: signal?.reason }));
  const check = (now: number) => {
    if (now < at) return;
    unwatch(check);
    fire(new OcsTimeoutError(`Timed out after ${timeoutMs} ms (all attempts and waits); raise timeoutMs.`));
  };
  watch(check);
  signal?.addEventListener('abort', abort);
  if (signal?.aborted) abort();
  const race = <T>(promise: Promise<T>) => Promise.race([promise, stopped]);
  return {
    signal: controller.signal,
    at,
    race,
    stopped: () => stop,
    sleep: (ms) => {
      let wait: ReturnType<typeof setTimeout> | undefined;
      return race(new Promise<void>((resolve) => (wait = setTimeout(resolve, ms)))).finally(() => clearTimeout(wait));
    },
    done: () => {
      unwatch(check);
      signal?.removeEventListener('abort', abort);
    },
  };
}
