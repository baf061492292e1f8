/**
 * The one rule of a rate-limit counter's window (`RateLimitStore.hit`), for the counters kept
 * in memory (the memory store's, and the app's in-process counters for the memory store and
 * PGlite); the SQL store's statement applies the same rule.
 */

/** A counter: the start of its window (an ISO instant) and the hits counted in it. */
export interface WindowCount {
  windowStart: string;
  count: number;
}

/**
 * The counter after one more hit of the window starting at `windowStart` (windows of
 * `windowMs`). The window only moves forward: a hit of the window just before the counter's
 * (a request stamped before a boundary and counted after it, which an `await` between the two
 * allows) counts in the counter's window. Taking the counter back to that window would forget
 * the later window's hits, and the next hit of the later window would start it again at 1: a
 * full budget more per boundary. A hit further back than that is no late hit but a clock that
 * stepped back: the counter starts again at its window, or it would stay spent until the clock
 * caught up with the counter's window.
 */
export function countHit(counter: WindowCount | undefined, windowStart: string, windowMs: number): WindowCount {
  // ISO instants of one form: their text orders as their time.
  if (counter === undefined || counter.windowStart < windowStart) return { windowStart, count: 1 };
  if (counter.windowStart === windowStart || isLate(windowStart, counter.windowStart, windowMs)) {
    return { windowStart: counter.windowStart, count: counter.count + 1 };
  }
  return { windowStart, count: 1 };
}

/** Whether a hit of window `hit` is a late one of the window just before `counter`'s. */
function isLate(hit: string, counter: string, windowMs: number): boolean {
  return Date.parse(counter) - Date.parse(hit) <= windowMs;
}
