/**
 * When a request is sent again, and after how long. Only requests that cannot do a
 * write twice are retried: GET, and POST carrying an `Idempotency-Key` (the service
 * answers a repeat with the first answer). PATCH, PUT, DELETE and a POST without a key
 * are never retried, whatever the answer.
 */
import { parseRateLimit } from './rate-limit.ts';

/** Whether a request may be sent more than once. */
export const isRetryable = (method: string, hasIdempotencyKey: boolean): boolean =>
  method === 'GET' || (method === 'POST' && hasIdempotencyKey);

/** Exponential backoff with full jitter: a random wait in [0, min(0.5 * 2^attempt, 8) s). */
export const backoff = (attempt: number): number => Math.random() * Math.min(500 * 2 ** attempt, 8000);

/** 409 and 503 codes that say the same request may succeed later (each has one status). */
const retriedCodes = ['IDEMPOTENCY_IN_PROGRESS', 'UPSTREAM_TIMEOUT', 'AUTH_UNAVAILABLE'];

/**
 * The ms to wait before retrying an error answer, or undefined when it must not be
 * retried: 429 (its `Retry-After`, else `RateLimit-Reset`, else backoff); 503
 * `UPSTREAM_TIMEOUT` and `AUTH_UNAVAILABLE` and 409 `IDEMPOTENCY_IN_PROGRESS`
 * (`Retry-After`, else backoff). A wait the service asks for beyond `maxRetryAfterMs` is
 * not waited: the caller gets the error, with its `retryAfter`, at once.
 */
export async function retryWait(
  response: Response,
  attempt: number,
  maxRetryAfterMs: number,
): Promise<number | undefined> {
  const { status } = response;
  if (status !== 429) {
    if (status !== 409 && status !== 503) return undefined;
    // The code is in the body; read a copy so that the caller still gets the answer intact.
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as { error?: string } | undefined;
    if (!retriedCodes.includes(body?.error as string)) return undefined;
  }
  const { retryAfter, reset } = parseRateLimit(response.headers);
  const seconds = retryAfter ?? (status === 429 ? reset : undefined);
  if (seconds === undefined) return backoff(attempt);
  return seconds * 1000 > maxRetryAfterMs ? undefined : seconds * 1000;
}
