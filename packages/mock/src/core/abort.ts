/**
 * A request's `AbortSignal`, honoured as `fetch` honours it: a client that gives up gets its
 * signal's reason at once, and the mock stops waiting on its behalf (added latency) so that
 * a request abandoned before the service saw it writes nothing.
 */

/**
 * `work`, or the signal's reason as soon as it aborts. The work itself goes on (an answer
 * the application is making is made, as on a server whose client left); its late failure is
 * nobody's to handle, so it is silenced.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

/**
 * Waits `ms`, or less if one of the signals aborts first (the timer is cleared: nothing is
 * left behind).
 */
export function delay(ms: number, ...signals: AbortSignal[]): Promise<void> {
  if (signals.some((signal) => signal.aborted)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const signal of signals) signal.addEventListener('abort', done, { once: true });
  });
}
