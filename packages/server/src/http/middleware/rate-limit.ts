/** Section 8: counts the request against the key's budgets (per endpoint and in total), or 429. */
import type { RateLimiter } from '../rate-limit.ts';
import { authOf, type Middleware } from './context.ts';

export function rateLimit(rateLimiter: RateLimiter): Middleware {
  return (context, next) => {
    const { operation } = context;
    // Windows are real time: advancing the sandbox clock refills nothing.
    return rateLimiter
      .consume(authOf(context).key.id, `${operation.method} ${operation.path}`, context.wallNow)
      .then((state) => {
        context.rateLimit = state;
        return next();
      });
  };
}
