/**
 * Section 8: counts the request against the key's budgets (per endpoint and in total), or 429.
 *
 * On a read (GET), the rest of the pipeline runs while the count is in flight, so that on
 * PostgreSQL the counter's statement and the handler's read overlap instead of taking two
 * round trips one after the other (docs/decisions/0007-one-round-trip.md). The answer
 * waits for both: a spent budget still answers 429 (whatever the rest answered), and the
 * `RateLimit-*` headers are those of the count. Handlers of GET operations write nothing,
 * so nothing is written before the limit is known; every other method waits for the count
 * before the rest runs, as before.
 */
import type { RateLimiter, RateLimitState } from '../rate-limit.ts';
import { authOf, type Middleware, type RequestContext } from './context.ts';

export function rateLimit(rateLimiter: RateLimiter): Middleware {
  return (context, next) => {
    const { operation } = context;
    // Windows are real time: advancing the sandbox clock refills nothing.
    const counted = rateLimiter.consume(
      authOf(context).key.id,
      `${operation.method} ${operation.path}`,
      context.wallNow,
    );
    if (operation.method === 'GET') return overlapped(context, counted, next());
    return counted.then((state) => {
      context.rateLimit = state;
      return next();
    });
  };
}

/** Settles when both have: the count's refusal first, then the rest's outcome. */
async function overlapped(
  context: RequestContext,
  counted: Promise<RateLimitState>,
  rest: Promise<void>,
): Promise<void> {
  const [count, outcome] = await Promise.allSettled([counted, rest]);
  if (count.status === 'rejected') {
    // The budget is spent (or could not be counted): the rest's answer is not sent.
    context.answer = undefined;
    throw count.reason;
  }
  context.rateLimit = count.value;
  if (outcome.status === 'rejected') throw outcome.reason;
}
