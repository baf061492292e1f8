/**
 * Operations per second of an async operation kept `inFlight` deep for `seconds`: the
 * in-process baselines (a pool's primary-key select, a single-row insert) are measured so.
 */
export async function rateInFlight(
  inFlight: number,
  seconds: number,
  operation: () => Promise<unknown>,
): Promise<number> {
  let done = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await operation();
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}
