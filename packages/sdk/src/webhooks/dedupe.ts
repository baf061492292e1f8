/**
 * Skipping repeated deliveries. The service retries a failed delivery with the same body and
 * the same `idempotency_key` (every 15 minutes, for at most 48 hours), and sends to every
 * webhook of a campaign at once; a receiver records the keys it processed and skips repeats.
 *
 * A key is in one of three states: absent, held by a delivery being processed (for a lease),
 * or done (for the TTL). Holding is what lets two copies of one event that arrive together be
 * told apart from a repeat of one already processed: the second copy must neither be
 * processed while the first is (it would be processed twice) nor be answered 2xx (if the
 * first then failed, the service would count the event as delivered, and it would be lost).
 */

/** What `DedupeStore.claim` found: the key was free and is now held, held already, or done. */
export type ClaimState = 'acquired' | 'in_flight' | 'done';

/**
 * Where keys live. `claim` must be atomic, so that two concurrent deliveries cannot both
 * acquire a key. With Redis: `SET key held NX PX leaseMs` (then `GET key` tells `in_flight`
 * from `done`), `SET key done PX ttlMs`, `DEL key`; with SQL: `INSERT ... ON CONFLICT DO
 * NOTHING` of a row with its state and expiry.
 */
export interface DedupeStore {
  /** Holds `key` for `leaseMs` when it is absent (or expired): `acquired`; else its state. */
  claim(key: string, leaseMs: number): ClaimState | Promise<ClaimState>;
  /** Records `key` as done for `ttlMs`, replacing the hold. */
  complete(key: string, ttlMs: number): unknown;
  /** Forgets `key`, so that the next delivery of it is processed. */
  release(key: string): unknown;
}

export interface DeduplicatorOptions {
  /**
   * Defaults to `createMemoryStore()`: keys live in this process's memory, so they do not
   * survive a restart or a redeploy, and are not shared with other processes or instances
   * (nor with other isolates of a serverless or edge platform). Use a shared store there.
   */
  store?: DedupeStore | undefined;
  /** How long a processed key is remembered: 48 hours by default, the service's retry window. */
  ttlMs?: number | undefined;
  /**
   * How long a delivery being processed holds its key: 5 minutes by default. Longer than the
   * service waits for an answer (75 s), shorter than its retry interval (15 min): a process
   * that dies while holding a key delays that event's next retry by at most this long.
   */
  leaseMs?: number | undefined;
}

/** An event with its `idempotency_key`, or the key itself. */
export type DedupeKey = string | { readonly idempotency_key: string };

/**
 * What `once` did: ran the handler (`handled`, with its result), skipped a key already done
 * (`duplicate`), or skipped a key held by a delivery still being processed (`in_flight`:
 * answer non-2xx, so that the service retries if that delivery fails).
 */
export type OnceResult<T> = { status: 'handled'; result: T } | { status: 'duplicate' } | { status: 'in_flight' };

export interface Deduplicator {
  /**
   * Records the event's key as done: true the first time (handle it), false for a repeat.
   * For a receiver that hands events to a durable queue and answers 2xx at once.
   */
  claim(event: DedupeKey): Promise<boolean>;
  /** Forgets the event's key, e.g. when processing failed and the retry should be processed. */
  release(event: DedupeKey): Promise<void>;
  /**
   * Runs `handler` for the first delivery of the event: the key is held while it runs,
   * recorded as done only when it resolves, and released when it throws (the error is
   * rethrown, and the service's retry is processed).
   */
  once<T>(event: DedupeKey, handler: () => T | Promise<T>): Promise<OnceResult<T>>;
}

const keyOf = (event: DedupeKey) => (typeof event === 'string' ? event : event.idempotency_key);

/**
 * Creates a deduplicator keyed on `idempotency_key`.
 *
 * @example
 * ```ts
 * const dedupe = createDeduplicator(); // or { store: redisStore, ttlMs: 72 * 3_600_000 }
 * const event = await verifyAndParse(request, { secret });
 * const outcome = await dedupe.once(event, () => saveReply(event));
 * return new Response(null, { status: outcome.status === 'in_flight' ? 409 : 204 });
 * ```
 */
export function createDeduplicator({
  store = createMemoryStore(),
  ttlMs = 48 * 60 * 60 * 1000,
  leaseMs = 5 * 60 * 1000,
}: DeduplicatorOptions = {}): Deduplicator {
  const release = async (event: DedupeKey) => {
    await store.release(keyOf(event));
  };
  return {
    async claim(event) {
      const key = keyOf(event);
      if ((await store.claim(key, ttlMs)) !== 'acquired') return false;
      await store.complete(key, ttlMs);
      return true;
    },
    release,
    async once(event, handler) {
      const key = keyOf(event);
      const state = await store.claim(key, leaseMs);
      if (state !== 'acquired') return { status: state === 'done' ? 'duplicate' : 'in_flight' };
      let result;
      try {
        result = await handler();
      } catch (error) {
        await release(key);
        throw error;
      }
      await store.complete(key, ttlMs);
      return { status: 'handled', result };
    },
  };
}

/**
 * The default store: a `Map` from key to its state and expiry, in this process's memory. It
 * does not survive a restart, and is not shared between processes, instances or isolates:
 * with more than one, or to keep deduplicating across deploys, use a shared store. Expired
 * keys are dropped as new ones arrive, and beyond `maxEntries` the oldest go first, so
 * memory stays bounded. (A key evicted early that is delivered again would be processed
 * again: size it above the number of events the receiver gets in the TTL.)
 *
 * @example
 * ```ts
 * const dedupe = createDeduplicator({ store: createMemoryStore({ maxEntries: 100_000 }) });
 * ```
 */
export function createMemoryStore({ maxEntries = 10_000 }: { maxEntries?: number | undefined } = {}): DedupeStore {
  const entries = new Map<string, { done: boolean; expiry: number }>();
  const put = (key: string, done: boolean, ttlMs: number) => {
    // Deleted first so that the key moves to the end: the Map stays roughly oldest first.
    entries.delete(key);
    entries.set(key, { done, expiry: Date.now() + ttlMs });
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
  };
  return {
    claim(key, leaseMs) {
      const now = Date.now();
      for (const [oldest, { expiry }] of entries) {
        if (expiry > now) break;
        entries.delete(oldest);
      }
      const entry = entries.get(key);
      if (entry && entry.expiry > now) return entry.done ? 'done' : 'in_flight';
      put(key, false, leaseMs);
      return 'acquired';
    },
    complete(key, ttlMs) {
      put(key, true, ttlMs);
    },
    release(key) {
      entries.delete(key);
    },
  };
}
