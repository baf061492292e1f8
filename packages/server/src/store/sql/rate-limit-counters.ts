/**
 * Rate-limit counters in the database, shared by every server on it. Concurrent hits on one
 * API key are coalesced: while a statement for a key is in flight, later hits for that key
 * wait and then go together in one statement that adds each bucket's number of hits. Every
 * request still gets an exact count of its own (the counts a batch adds are consecutive), but
 * a busy key costs one round trip per batch instead of one per request, and requests no
 * longer queue one by one on the counter row's lock (the benchmark's PostgreSQL bottleneck).
 */
import type { RateLimitStore } from '../types.ts';
import type { SqlClient } from './client.ts';

interface PendingHit {
  buckets: string[];
  windowStart: string;
  windowMs: number;
  resolve: (counts: number[]) => void;
  reject: (error: unknown) => void;
}

// Adds `n` hits per bucket; a counter still in an earlier window starts again from `n`. A
// batch of the window just before the counter's (it ran late) counts in the counter's window:
// moving the counter back would forget the later window's hits. A batch further back ($5, the
// window's length in ms, apart) is a clock that stepped back: the counter starts again there
// (RateLimitStore.hit, store/rate-limit-window.ts).
const addHits = `insert into rate_limit_counters as c (api_key_id, bucket, window_start, count)
  select $1, b.bucket, $3, b.n from unnest($2::text[], $4::int[]) with ordinality as b(bucket, n, i) order by b.i
  on conflict (api_key_id, bucket) do update
     set count = case when c.window_start < excluded.window_start
                        or c.window_start > excluded.window_start + $5::int * interval '1 millisecond'
                      then excluded.count else c.count + excluded.count end,
         window_start = case when c.window_start > excluded.window_start + $5::int * interval '1 millisecond'
                             then excluded.window_start else greatest(c.window_start, excluded.window_start) end
  returning bucket, count`;

export function sqlRateLimits(client: SqlClient): RateLimitStore {
  /** Hits waiting per API key; a key is present while a statement for it is in flight. */
  const waiting = new Map<string, PendingHit[]>();

  /** Runs statements for a key until no hit for it waits (a loop, so no promise chain grows). */
  async function drain(apiKeyId: string, first: PendingHit): Promise<void> {
    let queue = [first];
    while (queue.length > 0) {
      // One window per statement: hits of a later window (a minute boundary passed) wait for
      // the next round, so each window's counts are added in order.
      const windowStart = queue[0]?.windowStart ?? first.windowStart;
      const batch = queue.filter((hit) => hit.windowStart === windowStart);
      const later = queue.filter((hit) => hit.windowStart !== windowStart);
      await addBatch(apiKeyId, windowStart, batch);
      queue = [...later, ...(waiting.get(apiKeyId) ?? [])];
      waiting.set(apiKeyId, []);
    }
    waiting.delete(apiKeyId);
  }

  async function addBatch(apiKeyId: string, windowStart: string, batch: PendingHit[]): Promise<void> {
    const added = new Map<string, number>();
    for (const hit of batch) for (const bucket of hit.buckets) added.set(bucket, (added.get(bucket) ?? 0) + 1);
    // The counters are locked in one order, their buckets' code points, whatever order the
    // hits came in: two servers' batches for one key (`endpoint:X`, `total` and `total`,
    // `endpoint:X`) locked them crosswise, and PostgreSQL failed one batch as a deadlock.
    const buckets = [...added.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    try {
      const rows = await client.query<{ bucket: string; count: number }>(addHits, [
        apiKeyId,
        buckets,
        windowStart,
        buckets.map((bucket) => added.get(bucket)),
        // One policy per server: the batch's hits share it.
        batch[0]?.windowMs ?? 60_000,
      ]);
      const after = new Map(rows.map((row) => [row.bucket, Number(row.count)]));
      // The batch's hits take the counts it added, in arrival order.
      const next = new Map([...added].map(([bucket, n]) => [bucket, (after.get(bucket) ?? n) - n + 1]));
      for (const hit of batch) {
        hit.resolve(
          hit.buckets.map((bucket) => {
            const count = next.get(bucket) ?? 1;
            next.set(bucket, count + 1);
            return count;
          }),
        );
      }
    } catch (error) {
      for (const hit of batch) hit.reject(error);
    }
  }

  return {
    hit(apiKeyId, buckets, windowStart, windowMs) {
      return new Promise<number[]>((resolve, reject) => {
        const hit = { buckets, windowStart, windowMs, resolve, reject };
        const queue = waiting.get(apiKeyId);
        if (queue) {
          queue.push(hit);
          return;
        }
        waiting.set(apiKeyId, []);
        void drain(apiKeyId, hit);
      });
    },
  };
}
