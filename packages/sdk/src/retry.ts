/**
 * When a request is sent again, and after how long (the README's table says why).
 *
 * Only requests that cannot do a write twice are repeated: GET, HEAD, PUT and DELETE
 * (sending them twice leaves the same state as once), and any request that carries an
 * `Idempotency-Key` (the service answers a repeat with the first answer; the named
 * operations whose document declares the header always send one). A POST or PATCH without
 * a key is never repeated, whatever happened.
 */
import { permanentErrorCodes } from './generated/retry.ts';
import { parseRateLimit } from './rate-limit.ts';

/**
 * Whether a request may be sent more than once, given the `Idempotency-Key` it carries: an
 * empty one is no key at all (Headers trims values, so a blank one is sent empty).
 */
export const isRetryable = (method: string, idempotencyKey: string | null | undefined): boolean =>
  !!idempotencyKey || method === 'GET' || method === 'PUT' || method === 'DELETE' || method === 'HEAD';

/** Exponential backoff with full jitter: a random wait in [0, min(0.5 * 2^attempt, 8) s). */
export const backoff = (attempt: number): number => Math.random() * Math.min(500 * 2 ** attempt, 8000);

/** Statuses that say the same request may succeed later (409 and 500: see the code). */
const retriedStatuses = [408, 409, 429, 500, 502, 503, 504];

/**
 * The ms to wait before retrying an error answer, or undefined when it must not be
 * retried: 408, 429, 502, 503, 504; 409 only with `IDEMPOTENCY_IN_PROGRESS`; 500 unless
 * its code is one the document lists as permanent. The wait is `Retry-After` (seconds or
 * an HTTP date), else `RateLimit-Reset` for a 429, else backoff. A wait the service asks
 * for beyond `maxRetryAfterMs` is not waited: the caller gets the error, with its
 * `retryAfter`, at once.
 */
export async function retryWait(
  response: Response,
  attempt: number,
  maxRetryAfterMs: number,
): Promise<number | undefined> {
  const { status } = response;
  if (!retriedStatuses.includes(status)) return undefined;
  if (status == 409 || status == 500) {
    // The code is in the body; read a copy so that the caller still gets the answer intact.
    const code = (
      (await response
        .clone()
        .json()
        .catch(() => undefined)) as { error?: string } | undefined
    )?.error as string;
    if (status == 409 ? code !== 'IDEMPOTENCY_IN_PROGRESS' : permanentErrorCodes.includes(code)) return undefined;
  }
  const { retryAfter, reset } = parseRateLimit(response.headers);
  const seconds = retryAfter ?? (status == 429 ? reset : undefined);
  if (seconds == null) return backoff(attempt);
  return seconds * 1000 > maxRetryAfterMs ? undefined : seconds * 1000;
}
