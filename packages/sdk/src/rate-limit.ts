/**
 * Rate-limit state read from the headers of every response, success or error. The
 * service counts per API key and per endpoint (method and route template); `reset` and
 * `retryAfter` are in seconds, as the service sends them.
 */
export interface RateLimit {
  /** Requests allowed to this endpoint per minute (`RateLimit-Limit`). */
  readonly limit: number | undefined;
  /** Requests left in the current window (`RateLimit-Remaining`). */
  readonly remaining: number | undefined;
  /** Seconds until the endpoint's full limit is available again (`RateLimit-Reset`). */
  readonly reset: number | undefined;
  /**
   * Seconds to wait before retrying (`Retry-After`), sent with `429` and some `409`/`503`.
   * An HTTP date is turned into the seconds left until it (0 once past).
   */
  readonly retryAfter: number | undefined;
}

/**
 * A header's whole number of seconds or requests: digits only, as `delay-seconds` is (RFC
 * 9110). `Number` alone would read `0x10`, `1e1`, `1.5` and an empty value (0). At most 10
 * digits (over 300 years of seconds): a longer run would be read as a huge number or `Infinity`.
 */
const number = (value: string | null): number | undefined =>
  /^\d{1,10}$/.test(value as string) ? Number(value) : undefined;

/**
 * `Retry-After`: seconds, or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`) as seconds from
 * now. Anything else is no value (the backoff applies). Only a value shaped like an
 * HTTP-date goes to `Date.parse`: its three forms (IMF-fixdate, rfc850, asctime) start with
 * the day's name and hold the time, and V8's `Date.parse` reads `-1`, `5.5.5` or `in 5` as
 * dates of 2001 or 2005, past ones, which would retry at once.
 */
const retryAfter = (value: string | null): number | undefined => {
  // `test(null)` tests "null", which does not match.
  const at = /[a-z].*:\d\d:/i.test(value as string) ? Date.parse(value as string) : NaN;
  return number(value) ?? (at ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : undefined);
};

/**
 * Reads `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `Retry-After`,
 * in seconds (a `Retry-After` given as an HTTP date becomes the seconds until it).
 *
 * @example
 * const { remaining, reset } = parseRateLimit(response.headers);
 */
export function parseRateLimit(headers: Headers): RateLimit {
  return {
    limit: number(headers.get('ratelimit-limit')),
    remaining: number(headers.get('ratelimit-remaining')),
    reset: number(headers.get('ratelimit-reset')),
    retryAfter: retryAfter(headers.get('retry-after')),
  };
}
