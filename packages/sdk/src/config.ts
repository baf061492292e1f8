/**
 * Checks and normalises what `createClient` is given, so that a wrong key or base URL
 * fails at construction with a message that says what to do, not at the first request.
 */
import { OcsError } from './errors.ts';

/**
 * An environment variable, where there is a `process` (browsers and web-standard runtimes
 * have none). Deno without `--allow-env` throws NotCapable on the read: an `optional` one
 * (`OCS_LOG`) then counts as unset, so that a client given its key and base URL needs no
 * env access; for the key and base URL, Deno's error says which flag to add.
 */
export const env = (name: string, optional?: boolean): string | undefined => {
  try {
    return globalThis.process?.env?.[name];
  } catch (error) {
    if (!optional) throw error;
  }
};

/** `Bearer <key>` with exactly one space, after checking the key's shape. */
export function authorization(apiKey = env('OCS_API_KEY')): string {
  const fail = (why: string) => {
    throw new OcsError(`Invalid API key: ${why}`);
  };
  if (!apiKey) fail('none given; pass apiKey or set OCS_API_KEY.');
  else if (/^bearer\s/i.test(apiKey)) fail('pass it without "Bearer ".');
  else if (!/^[a-z\d]+_[\w-]+$/i.test(apiKey)) fail('expected a prefix, "_" and the secret (ocs_...), no spaces.');
  return `Bearer ${apiKey}`;
}

/**
 * The base URL ending in `/v1`, whether or not it was given with it. The default is where
 * `npx ocs-mock` (from @ocs/mock) listens, the one local server an SDK user can install
 * (docs/decisions/0008-ports-and-names.md); the reference server is at 4010.
 */
export function baseUrl(url = env('OCS_BASE_URL') ?? 'http://127.0.0.1:4011'): string {
  const trimmed = url.replace(/\/+$/, '');
  try {
    // Paths are appended to the base URL: after a query string or a fragment they would land
    // in it. `new URL` refuses what every request's fetch would (a port above 65535, a bad host).
    if (/^https?:\/\/[^/\s?#][^\s?#]*$/i.test(trimmed) && new URL(trimmed)) {
      return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
    }
  } catch {
    // Refused below, as the pattern refuses.
  }
  throw new OcsError(`Invalid baseUrl "${url}": expected an absolute http(s) URL, no query or fragment.`);
}

/**
 * `timeoutMs` (ms, above 0) and `maxRetries` (a whole number, 0 or more), of the client or
 * of a call, and the client's `maxRetryAfterMs` (ms, 0 or more; Infinity waits any
 * `Retry-After` within the deadline): NaN would time every call out at once, retry until the
 * deadline or remove the cap, and a negative count or cap would silently never retry.
 */
export function checkLimits(timeoutMs: number, maxRetries: number, maxRetryAfterMs = 0): void {
  if (!(timeoutMs > 0)) throw new OcsError(`Invalid timeoutMs ${timeoutMs}: expected ms above 0.`);
  // Also false for NaN and Infinity.
  if (!(maxRetries >= 0 && maxRetries % 1 == 0))
    throw new OcsError(`Invalid maxRetries ${maxRetries}: expected a whole number, 0 or more.`);
  if (!(maxRetryAfterMs >= 0))
    throw new OcsError(`Invalid maxRetryAfterMs ${maxRetryAfterMs}: expected ms, 0 or more.`);
}
