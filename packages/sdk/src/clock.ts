/**
 * One shared ticker for every call's deadline and every wait between its attempts, instead
 * of a timer per call: creating and clearing a Node timer on each call costs about 7% of a
 * call on loopback (bench/), and a timer cannot hold a delay above 2^31-1 ms (src/deadline.ts).
 * The ticker runs every 50 ms while calls are in flight, so a deadline fires, and a wait
 * ends, up to 50 ms late.
 *
 * A pending call is work: while a deadline is watched the ticker keeps a Node process
 * alive, so that a call whose fetch holds no socket (MSW, a mock's in-process fetch that
 * never answers) still ends at its deadline instead of the process exiting under it. Once
 * none is watched the ticker is unreferenced at once, so a finished script exits without
 * waiting for it, and cleared at its next tick; calls one after the other therefore
 * restart it at most every 50 ms.
 */
const watched = new Set<(now: number) => void>();
// Node's Timeout (ref/unref); a number in browsers and Deno.
let ticker: { ref?(): void; unref?(): void } | undefined;

function tick() {
  const now = Date.now();
  for (const check of watched) check(now);
  if (watched.size) return;
  clearInterval(ticker as number);
  ticker = undefined;
}

/** Calls `check(now)` about every 50 ms until `unwatch(check)`. */
export function watch(check: (now: number) => void): void {
  watched.add(check);
  if (ticker) ticker.ref?.();
  else ticker = setInterval(tick, 50);
}

export function unwatch(check: (now: number) => void): void {
  if (watched.delete(check) && !watched.size) ticker?.unref?.();
}
