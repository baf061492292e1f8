/**
 * One deadline per call, across every attempt and every wait between them, and the
 * caller's AbortSignal.
 *
 * The caller's signal is handed to fetch as is, so that aborting stops the current
 * attempt at once. The deadline, though, is a race rather than a signal of the SDK's
 * own: giving undici's fetch a signal costs a WeakRef, a FinalizationRegistry entry and
 * listener bookkeeping on every request, about 10% of a call on loopback (bench/). At the
 * deadline (read from the shared clock of src/clock.ts) the call rejects with
 * OcsTimeoutError; an attempt still waiting for its answer is left to finish, and that
 * answer's body is cancelled when it comes.
 */
import { unwatch, watch } from './clock.ts';
import { OcsAbortError, OcsTimeoutError, type OcsError } from './errors.ts';

export interface Deadline {
  /** The caller's signal, for fetch. */
  readonly signal: AbortSignal | null | undefined;
  /** Epoch ms of the deadline. */
  readonly at: number;
  /** Settles like `promise`, or rejects with OcsTimeoutError or OcsAbortError first. */
  race<T>(promise: Promise<T>): Promise<T>;
  /** The SDK's error when the call was aborted or timed out, else undefined. */
  stopped(): OcsError | undefined;
  /** Resolves after `ms`, or rejects at the deadline or on abort. */
  sleep(ms: number): Promise<void>;
  /** Stops watching the clock and the signal. */
  done(): void;
}

export function startDeadline(timeoutMs: number, signal?: AbortSignal | null): Deadline {
  let stop: OcsError | undefined;
  let reject!: (error: OcsError) => void;
  const stopped = new Promise<never>((_, fail) => (reject = fail));
  stopped.catch(() => {}); // only races observe it
  const at = Date.now() + timeoutMs;
  const fire = (error: OcsError) => reject((stop ??= error));
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
    signal,
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
