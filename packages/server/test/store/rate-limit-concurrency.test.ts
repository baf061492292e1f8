/**
 * Rate-limit counters under concurrent hits (the SQL store coalesces them into batches): each
 * hit still gets a count of its own, the counts are consecutive, and the stored total is exact.
 * The same cases run on every store's counters and on the in-process counters the app uses
 * for the memory store and PGlite (`inProcessRateLimits`).
 */
import { describe, expect, it, vi } from 'vitest';
import { inProcessRateLimits } from '../../src/http/rate-limit.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import type { RateLimitStore } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';

const oneMinute = 60_000;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString();

describe("in-process rate-limit counters (the app's, for the memory store and PGlite)", () => {
  let counters = inProcessRateLimits();
  countsExactly(() => ({ rateLimits: counters }));

  it('keeps the window before the current one when it prunes: a late hit still finds its count', async () => {
    counters = inProcessRateLimits();
    const spent = crypto.randomUUID();
    for (let i = 1; i <= 100; i++) await counters.hit(spent, ['total'], at(0), oneMinute);
    for (let i = 0; i < 100_001; i++) await counters.hit(crypto.randomUUID(), ['total'], at(0), oneMinute);
    // Minute 1's first hit prunes (more than 100,000 counters): minute 0's stay.
    expect(await counters.hit(crypto.randomUUID(), ['total'], at(1), oneMinute)).toEqual([1]);
    // A late request of the spent key, stamped in minute 0: counted after its 100, refused.
    expect(await counters.hit(spent, ['total'], at(0), oneMinute)).toEqual([101]);
    // Minute 2 prunes minute 0 (two windows back).
    expect(await counters.hit(crypto.randomUUID(), ['total'], at(2), oneMinute)).toEqual([1]);
  });
});

describeBackends('rate-limit counters under concurrency', (store, backend) => {
  countsExactly(store);

  // Two connections of one pool stand for two servers; PGlite has one connection.
  if (backend === 'postgres') {
    it("locks a batch's counters in one order, whatever order its hits came in, so two servers cannot deadlock", async () => {
      const sql = (store() as SqlStore).client;
      const keyId = crypto.randomUUID();
      await store().rateLimits.hit(keyId, ['endpoint:GET /a', 'total'], at(0), oneMinute);
      let pending: Promise<number[]> | undefined;
      const totalWasFree = await sql.transaction(async (other) => {
        // Another server's batch has locked its first counter, in code point order...
        const lock = `select 1 from rate_limit_counters where api_key_id = $1 and bucket = $2 for update`;
        await other.query(lock, [keyId, 'endpoint:GET /a']);
        // ...when this server's hits come, `total` first.
        pending = store().rateLimits.hit(keyId, ['total', 'endpoint:GET /a'], at(0), oneMinute);
        await vi.waitFor(async () => {
          // A session waiting for this transaction's lock: the hit's statement.
          const [waiting] = await other.query<{ n: number }>(
            'select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
          );
          expect(waiting?.n).toBe(1);
        });
        // The other batch's next counter is free: this one waits before taking any.
        const rows = await other.query(`${lock} skip locked`, [keyId, 'total']);
        return rows.length === 1;
      });
      expect(totalWasFree).toBe(true);
      expect(await pending).toEqual([2, 2]);
    });
  }

  // Decision 0007: ephemeral counters write no WAL, so their commit waits for no fsync. The
  // memory store has no tables: the test exists for the SQL stores only.
  if (backend !== 'memory') {
    it('keeps the counters in an unlogged table', async () => {
      const [table] = await (store() as SqlStore).client.query<{ relpersistence: string }>(
        `select relpersistence from pg_class where oid = 'rate_limit_counters'::regclass`,
      );
      expect(table?.relpersistence).toBe('u');
    });
  }
});

/** What every counter must do, whichever store keeps it. */
function countsExactly(source: () => { rateLimits: RateLimitStore }): void {
  const counters = () => source().rateLimits;
  it('gives concurrent hits on one key distinct, consecutive counts', async () => {
    const keyId = crypto.randomUUID();
    const hits = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        counters().hit(keyId, [`endpoint:GET /${i % 2 === 0 ? 'a' : 'b'}`, 'total'], at(0), oneMinute),
      ),
    );
    const totals = hits.map(([, total]) => total).sort((x, y) => (x ?? 0) - (y ?? 0));
    expect(totals).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const forA = hits.filter((_, i) => i % 2 === 0).map(([endpoint]) => endpoint);
    expect(forA.sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // The next hit sees every earlier one.
    expect(await counters().hit(keyId, ['endpoint:GET /a', 'total'], at(0), oneMinute)).toEqual([21, 41]);
  });

  it('starts a new window from one even when hits of two windows arrive together', async () => {
    const keyId = crypto.randomUUID();
    const [first, second, third] = await Promise.all([
      counters().hit(keyId, ['total'], at(0), oneMinute),
      counters().hit(keyId, ['total'], at(0), oneMinute),
      counters().hit(keyId, ['total'], at(1), oneMinute),
    ]);
    expect([first, second, third]).toEqual([[1], [2], [1]]);
    expect(await counters().hit(keyId, ['total'], at(1), oneMinute)).toEqual([2]);
  });

  it('counts a late hit of an earlier window in the later one, never taking the counter back', async () => {
    // Another process (or a batch that waited) may write a hit of minute 0 after minute 1 began.
    const keyId = crypto.randomUUID();
    for (let i = 1; i <= 3; i++) expect(await counters().hit(keyId, ['total'], at(1), oneMinute)).toEqual([i]);
    expect(await counters().hit(keyId, ['total'], at(0), oneMinute)).toEqual([4]);
    expect(await counters().hit(keyId, ['total'], at(1), oneMinute)).toEqual([5]);
    expect(await counters().hit(keyId, ['total'], at(2), oneMinute)).toEqual([1]);
  });

  it('starts a counter again when the clock stepped back more than a window, rather than staying spent', async () => {
    // An NTP step, a VM resumed, a test's clock set back: the counter's window is in the future.
    const keyId = crypto.randomUUID();
    for (let i = 1; i <= 3; i++) expect(await counters().hit(keyId, ['total'], at(5), oneMinute)).toEqual([i]);
    expect(await counters().hit(keyId, ['total'], at(4), oneMinute)).toEqual([4]); // late: the window before
    expect(await counters().hit(keyId, ['total'], at(2), oneMinute)).toEqual([1]); // three windows back
    expect(await counters().hit(keyId, ['total'], at(2), oneMinute)).toEqual([2]);
    expect(await counters().hit(keyId, ['total'], at(3), oneMinute)).toEqual([1]);
  });

  it('keeps keys apart', async () => {
    const [one, two] = [crypto.randomUUID(), crypto.randomUUID()];
    const hits = await Promise.all([
      counters().hit(one, ['total'], at(0), oneMinute),
      counters().hit(two, ['total'], at(0), oneMinute),
      counters().hit(one, ['total'], at(0), oneMinute),
    ]);
    expect(hits.map(([count]) => count).sort()).toEqual([1, 1, 2]);
  });
}
