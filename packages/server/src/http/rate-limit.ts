/**
 * Rate limits per API key (section 8): 100 requests per minute per endpoint (method and
 * route template, NOTES.md) and 600 per minute in total, counted in fixed one-minute windows
 * in the store, so that several processes on one PostgreSQL share one budget.
 */
import type { Store } from '../store/types.ts';
import { ApiError } from './api-error.ts';

export interface RateLimitPolicy {
  perEndpoint: number;
  total: number;
  windowMs: number;
}

export const defaultRateLimits: RateLimitPolicy = { perEndpoint: 100, total: 600, windowMs: 60_000 };

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the endpoint's full limit is available again. */
  reset: number;
}

export class RateLimiter {
  constructor(
    private readonly store: Store,
    readonly policy: RateLimitPolicy,
  ) {}

  /** Counts the request; throws `429 RATE_LIMITED` when a budget is spent. */
  async consume(apiKeyId: string, endpoint: string, now: Date): Promise<RateLimitState> {
    const windowStart = Math.floor(now.getTime() / this.policy.windowMs) * this.policy.windowMs;
    const reset = Math.max(1, Math.ceil((windowStart + this.policy.windowMs - now.getTime()) / 1000));
    const [forEndpoint = 0, total = 0] = await this.store.rateLimits.hit(
      apiKeyId,
      [`endpoint:${endpoint}`, 'total'],
      new Date(windowStart).toISOString(),
    );
    const state: RateLimitState = {
      limit: this.policy.perEndpoint,
      remaining: Math.max(0, Math.min(this.policy.perEndpoint - forEndpoint, this.policy.total - total)),
      reset,
    };
    if (forEndpoint > this.policy.perEndpoint || total > this.policy.total) {
      const which =
        forEndpoint > this.policy.perEndpoint
          ? `${this.policy.perEndpoint} requests per minute for ${endpoint}`
          : `${this.policy.total} requests per minute in total`;
      throw new RateLimitedError(
        new ApiError(429, 'RATE_LIMITED', `Rate limit of ${which} exceeded. Retry after ${reset} seconds.`, {
          headers: { 'Retry-After': String(reset) },
        }),
        state,
      );
    }
    return state;
  }

  /** What to report on answers that counted nothing (no valid key): the full budget. */
  untouched(): RateLimitState {
    return { limit: this.policy.perEndpoint, remaining: this.policy.perEndpoint, reset: 0 };
  }
}

/** A 429 that also carries the state for the response's `RateLimit-*` headers. */
export class RateLimitedError extends Error {
  constructor(
    readonly error: ApiError,
    readonly state: RateLimitState,
  ) {
    super(error.message);
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.reset),
  };
}
