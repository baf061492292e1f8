/**
 * `VACUUM` after an erasure, until it has removed what the erasure replaced (decision 0003,
 * "Older transactions").
 *
 * The row versions an erasure replaced still hold the erased values (a name in the heap,
 * `lower(email)` in `leads_email`). A `VACUUM` removes them only when no transaction that
 * might still see them is open: on a PostgreSQL server, any transaction of the same database
 * that was running when the erasure committed (a concurrent request, a report, a `psql`
 * session) holds them in place, and the vacuum right after the erasure leaves them. So the
 * reclaimer looks, before that vacuum, for such a transaction; when there is one, it vacuums
 * again once none is left, checking at growing intervals while the store is open.
 *
 * PGlite runs one connection: no other transaction exists, and the first vacuum is enough.
 */
import type { ReclaimLog } from '../types.ts';
import type { SqlClient } from './client.ts';

export interface ErasureReclaimer {
  /** Vacuums now; vacuums again later if an older transaction kept the erased values. */
  reclaim(log?: ReclaimLog): Promise<void>;
  /** Stops the later checks and waits for one under way (dead versions left stay). */
  close(): Promise<void>;
}

export interface ReclaimTimes {
  /** First check for the older transactions' end (default 200 ms), doubling up to `maxRetryMs`. */
  firstRetryMs?: number;
  /** Default 10 s. */
  maxRetryMs?: number;
}

/**
 * A transaction ID no transaction had when the erasure committed: `pg_current_snapshot()`'s
 * `xmax`, read after the commit. Every transaction with an older ID began before it.
 */
const markerSql = 'select pg_snapshot_xmax(pg_current_snapshot())::text as marker';

/**
 * Whether something could still hold row versions a vacuum after `$1` would remove: what
 * PostgreSQL's own horizon is made of (for a table that is not a catalog), each compared by
 * age, since 32-bit transaction IDs wrap around. A backend's `backend_xid` (its transaction)
 * and `backend_xmin` (its snapshot's oldest transaction), readable by any role; a prepared
 * transaction; a replication slot's `xmin` (a standby's `hot_standby_feedback`), and a
 * walsender's own `backend_xmin` (the same feedback without a slot: its row names no database,
 * and it holds every database's tables). A backend of another database does not hold this one's.
 */
const olderHolderSql = `
  with erasure as (select age(xid($1::xid8)) as age)
  select exists (
           select 1 from pg_stat_activity, erasure
            where (datname = current_database() or datid is null) and pid <> pg_backend_pid()
              and (age(backend_xid) > erasure.age or age(backend_xmin) > erasure.age))
      or exists (
           select 1 from pg_prepared_xacts, erasure
            where database = current_database() and age(transaction) > erasure.age)
      or exists (select 1 from pg_replication_slots, erasure where age(xmin) > erasure.age)
      as held`;

export function erasureReclaimer(
  client: SqlClient,
  tables: readonly string[],
  { firstRetryMs = 200, maxRetryMs = 10_000 }: ReclaimTimes = {},
): ErasureReclaimer {
  // `INDEX_CLEANUP ON`: by default (`auto`, since PostgreSQL 14) a vacuum that finds dead rows
  // on under 2 % of a table's pages leaves their index entries in place, and one erasure among
  // thousands of leads left `lower(email)` in `leads_email` (decision 0003, "Index entries").
  // Not `VACUUM FULL` (it locks the tables out for the whole rewrite).
  const vacuum = () => client.query(`vacuum (index_cleanup on) ${tables.join(', ')}`);
  const held = async (marker: bigint) =>
    (await client.query<{ held: boolean }>(olderHolderSql, [marker.toString()]))[0]?.held === true;

  /** The newest erasure whose values an older transaction held at its vacuum. */
  let pending: bigint | undefined;
  let log: ReclaimLog | undefined;
  let delay = firstRetryMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let closed = false;

  /** One retry at a time: a retry under way schedules the next itself when it ends. */
  const schedule = () => {
    if (closed || timer !== undefined || running !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = retry().finally(() => {
        running = undefined;
        if (pending !== undefined) schedule();
      });
    }, delay);
    // Never what keeps the process alive (Node's timers; elsewhere a number, nothing to do).
    (timer as { unref?: () => void }).unref?.();
    delay = Math.min(delay * 2, maxRetryMs);
  };

  /** Vacuums once nothing older than the pending erasure holds its versions; else tried later. */
  const retry = async () => {
    const marker = pending;
    if (marker === undefined) return;
    try {
      if (await held(marker)) return;
      await vacuum();
      // A later erasure held by a newer transaction waits on (its marker replaced this one).
      if (pending !== marker) return;
      pending = undefined;
      delay = firstRetryMs;
      log?.({ level: 'info', message: 'vacuum after erasure done once older transactions ended' });
    } catch (error) {
      log?.({ level: 'warn', message: 'vacuum after erasure failed; tried again later', error: String(error) });
    }
  };

  /** Vacuums again later, once nothing older than `marker` is left. */
  const waitFor = (marker: bigint) => {
    if (pending === undefined || marker > pending) pending = marker;
    schedule();
  };

  return {
    async reclaim(logTo) {
      if (client.kind === 'pglite') {
        await vacuum();
        return;
      }
      log = logTo ?? log;
      // Whatever the check says or does, the vacuum runs: what is removable now goes now.
      let marker: bigint | undefined;
      try {
        const [row] = await client.query<{ marker: string }>(markerSql);
        marker = BigInt(row?.marker ?? '0');
        if (await held(marker)) {
          log?.({
            level: 'info',
            message: 'vacuum after erasure runs again when older transactions end: they may still read the erased rows',
          });
          waitFor(marker);
        }
      } catch (error) {
        log?.({
          level: 'warn',
          message: 'could not check for transactions older than the erasure; vacuumed once',
          error: String(error),
        });
      }
      try {
        await vacuum();
      } catch (error) {
        // Tried again later, as a held one is; the caller logs this failure.
        if (marker !== undefined) waitFor(marker);
        throw error;
      }
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
