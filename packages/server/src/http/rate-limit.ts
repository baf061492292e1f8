/**
 * Rate limits per API key (section 8): 100 requests per minute per endpoint (method and
 * route template, NOTES.md) and 600 per minute in total, counted in fixed one-minute windows
 * in the store, so that several processes on one PostgreSQL share one budget.
 */
import { countHit, type WindowCount } from '../store/rate-limit-window.ts';
import type { RateLimitStore } from '../store/types.ts';
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
    private readonly counters: RateLimitStore,
    readonly policy: RateLimitPolicy,
  ) {}

  /** Counts the request; throws `429 RATE_LIMITED` when a budget is spent. */
  async consume(apiKeyId: string, endpoint: string, now: Date): Promise<RateLimitState> {
    const windowStart = Math.floor(now.getTime() / this.policy.windowMs) * this.policy.windowMs;
    const reset = Math.max(1, Math.ceil((windowStart + this.policy.windowMs - now.getTime()) / 1000));
    const [forEndpoint = 0, total = 0] = await this.counters.hit(
      apiKeyId,
      [`endpoint:${endpoint}`, 'total'],
      new Date(windowStart).toISOString(),
      this.policy.windowMs,
    );
    const state: RateLimitState = {
      limit: this.policy.perEndpoint,
      remaining: Math.max(0, Math.min(this.policy.perEndpoint - forEndpoint, this.policy.total - total)),
      reset,
    };
    if (forEndpoint > this.policy.perEndpoint || total > this.policy.total) {
      const per = windowText(this.policy.windowMs);
      const which =
        forEndpoint > this.policy.perEndpoint
          ? // The endpoint as the caller writes it (`GET /v1/campaigns/{campaign_id}`); counted without the prefix.
            `${this.policy.perEndpoint} requests per ${per} for ${endpoint.replace(' ', ' /v1')}`
          : `${this.policy.total} requests per ${per} in total`;
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

/**
 * Counters in this process's memory: exact where one process holds all the state (the
 * memory store, and embedded PGlite, which no other process can open), and a store round
 * trip cheaper than any database's. Only the current window of each bucket is kept.
 */
export function inProcessRateLimits(): RateLimitStore {
  const counters = new Map<string, WindowCount>();
  return {
    async hit(apiKeyId, buckets, windowStart, windowMs) {
      if (counters.size > 100_000) {
        // Counters of the window before this one stay: a late hit of that window must still
        // find its key's count (a new counter would start it at 1, and let it through).
        const kept = new Date(Date.parse(windowStart) - windowMs).toISOString();
        for (const [id, counter] of counters) if (counter.windowStart < kept) counters.delete(id);
      }
      return buckets.map((bucket) => {
        const id = `${apiKeyId} ${bucket}`;
        const counter = countHit(counters.get(id), windowStart, windowMs);
        counters.set(id, counter);
        return counter.count;
      });
    },
  };
}

/** `minute` for the service's window; the exact length for another (the mock's scenarios set one). */
function windowText(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs === 1000) return 'second';
  return windowMs % 1000 === 0 ? `${windowMs / 1000} seconds` : `${windowMs} ms`;
}
