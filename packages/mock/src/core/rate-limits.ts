/**
 * The application's own rate limiter, with counters the mock can start afresh (`reset()`)
 * and a policy it can lower for a while (the low-budget scenario). Counting, the
 * `RateLimit-*` headers and the 429 with `Retry-After` stay the server's.
 */
import { inProcessRateLimits, type RateLimitPolicy, type RateLimitStore } from '@ocs/server';

export interface RateLimitControl {
  /** The counters to give the application (`rateLimitCounters`). */
  readonly counters: RateLimitStore;
  /** Connects the application's live policy object (`app.rateLimiter.policy`). */
  attach(policy: RateLimitPolicy): void;
  /** Fresh counters and the mock's own policy. */
  reset(): void;
  /** A lower budget from now on, with fresh counters. */
  setBudget(budget: Partial<RateLimitPolicy>): void;
  /** Runs `work` without limits (seeding), then resets. */
  unlimited<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Never counts this key's requests (the key of `mock.sandbox`), so that the test's own
   * key keeps its whole budget, whatever the sandbox calls and whatever is in flight.
   */
  exempt(apiKeyId: string): void;
}

export function rateLimitControl(): RateLimitControl {
  let inner = inProcessRateLimits();
  const exempted = new Set<string>();
  let live: RateLimitPolicy | undefined;
  let base: RateLimitPolicy | undefined;
  const set = (policy: RateLimitPolicy) => {
    if (live) Object.assign(live, policy);
  };
  const control: RateLimitControl = {
    counters: {
      hit: (apiKeyId, buckets, windowStart, windowMs) =>
        exempted.has(apiKeyId)
          ? Promise.resolve(buckets.map(() => 0))
          : inner.hit(apiKeyId, buckets, windowStart, windowMs),
    },
    attach(policy) {
      live = policy;
      base = { ...policy };
    },
    reset() {
      inner = inProcessRateLimits();
      if (base) set(base);
    },
    setBudget(budget) {
      inner = inProcessRateLimits();
      const given = Object.fromEntries(Object.entries(budget).filter(([, value]) => value !== undefined));
      if (base) set({ ...base, ...given });
    },
    async unlimited(work) {
      if (base) set({ ...base, perEndpoint: Number.MAX_SAFE_INTEGER, total: Number.MAX_SAFE_INTEGER });
      try {
        return await work();
      } finally {
        control.reset();
      }
    },
    exempt(apiKeyId) {
      exempted.add(apiKeyId);
    },
  };
  return control;
}
