/**
 * One shared ticker for every call's deadline, instead of a timer per call: creating and
 * clearing a Node timer on each call costs about 7% of a call on loopback (bench/). The
 * ticker runs every 50 ms while calls are in flight; it never keeps a process alive by itself. A deadline therefore fires up to 50 ms late.
 * The ticker stops at the first tick that finds no call in flight, so calls one after the
 * other restart it at most every 50 ms.
 */
const watched = new Set<(now: number) => void>();
let ticker: ReturnType<typeof setInterval> | undefined;

function tick() {
  const now = Date.now();
  for (const check of watched) check(now);
  if (watched.size) return;
  clearInterval(ticker);
  ticker = undefined;
}

/** Calls `check(now)` about every 50 ms until `unwatch(check)`. */
export function watch(check: (now: number) => void): void {
  watched.add(check);
  if (ticker) return;
  ticker = setInterval(tick, 50);
  // Node: in-flight requests keep the process alive, not the ticker (browsers: a number).
  (ticker as { unref?: () => void }).unref?.();
}

export const unwatch = (check: (now: number) => void): boolean => watched.delete(check);
