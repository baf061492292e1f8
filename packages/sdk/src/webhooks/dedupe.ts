/**
 * Skipping repeated deliveries. The service retries a failed delivery with the same body and
 * the same `idempotency_key` (every 15 minutes, for at most 48 hours), and sends to every
 * webhook of a campaign at once; a receiver records the keys it processed and skips repeats.
 */

/**
 * Where processed keys live. `add` must be atomic, so that two concurrent deliveries cannot
 * both see a key as new: Redis `SET key 1 NX PX ttl`, SQL `INSERT ... ON CONFLICT DO
 * NOTHING` (then check the row's age against the TTL), or the in-memory default.
 */
export interface DedupeStore {
  /** Records `key` for `ttlMs`; true when it was not there (first delivery), false otherwise. */
  add(key: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets `key`, so that the next delivery of it is processed. */
  delete(key: string): unknown;
}

export interface DeduplicatorOptions {
  /** Defaults to an in-memory store: fine for one process, lost on restart. */
  store?: DedupeStore;
  /** How long a key is remembered: 48 hours by default, the service's retry window. */
  ttlMs?: number;
}

/** An event with its `idempotency_key`, or the key itself. */
export type DedupeKey = string | { readonly idempotency_key: string };

export interface Deduplicator {
  /** Records the event's key: true the first time (process it), false for a repeat (skip it). */
  claim(event: DedupeKey): Promise<boolean>;
  /** Forgets the event's key, e.g. when processing failed and the retry should be processed. */
  release(event: DedupeKey): Promise<void>;
  /**
   * Runs `handler` unless the event was already claimed; when `handler` throws, the key is
   * released (so the service's retry is processed) and the error is rethrown.
   */
  once<T>(
    event: DedupeKey,
    handler: () => T | Promise<T>,
  ): Promise<{ duplicate: true } | { duplicate: false; result: T }>;
}

const keyOf = (event: DedupeKey) => (typeof event === 'string' ? event : event.idempotency_key);

/**
 * Creates a deduplicator keyed on `idempotency_key`.
 *
 * @example
 * ```ts
 * const dedupe = createDeduplicator(); // or { store: redisStore, ttlMs: 72 * 3_600_000 }
 * const event = await verifyAndParse(request, { secret });
 * if (await dedupe.claim(event)) queue.push(event); // answer 2xx either way
 * ```
 */
export function createDeduplicator({
  store = createMemoryStore(),
  ttlMs = 48 * 60 * 60 * 1000,
}: DeduplicatorOptions = {}): Deduplicator {
  const claim = async (event: DedupeKey) => Boolean(await store.add(keyOf(event), ttlMs));
  const release = async (event: DedupeKey) => {
    await store.delete(keyOf(event));
  };
  return {
    claim,
    release,
    async once(event, handler) {
      if (!(await claim(event))) return { duplicate: true };
      try {
        return { duplicate: false, result: await handler() };
      } catch (error) {
        await release(event);
        throw error;
      }
    },
  };
}

/**
 * The default store: a `Map` from key to expiry, oldest first. Expired keys are dropped as
 * new ones arrive, and beyond `maxEntries` the oldest go first, so memory stays bounded.
 * (A key evicted early that is delivered again would be processed again: size it above the
 * number of events the receiver gets in `ttlMs`, or use a shared store.)
 *
 * @example
 * ```ts
 * const dedupe = createDeduplicator({ store: createMemoryStore({ maxEntries: 100_000 }) });
 * ```
 */
export function createMemoryStore({ maxEntries = 10_000 }: { maxEntries?: number } = {}): DedupeStore {
  const expiries = new Map<string, number>();
  return {
    add(key, ttlMs) {
      const now = Date.now();
      for (const [oldest, expiry] of expiries) {
        if (expiry > now) break;
        expiries.delete(oldest);
      }
      const expiry = expiries.get(key);
      if (expiry !== undefined && expiry > now) return false;
      expiries.delete(key);
      expiries.set(key, now + ttlMs);
      while (expiries.size > maxEntries) expiries.delete(expiries.keys().next().value as string);
      return true;
    },
    delete(key) {
      return expiries.delete(key);
    },
  };
}
