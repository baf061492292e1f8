/**
 * The planner's statistics, gathered by the server itself where they are missing or stale
 * (decision 0006, "Statistics the server gathers"). PostgreSQL's autovacuum gathers them on a
 * server where it runs; where it is off, and always on PGlite (single-user PostgreSQL, no
 * autovacuum), a table filled without `ANALYZE` is planned on default guesses. On 120,000
 * leads never analyzed, PostgreSQL then walked every enrolment to find a page's 100
 * (`lead_id = any($1)` through `enrolments_live`, whose first column is `campaign_id`: 77,600
 * buffers, 540 ms) and every lead of the organization to read one by ID (`leads_newest`):
 * pages of 100 leads took 500 ms, filtered or not.
 *
 * A table of the server's own is analyzed when it holds at least `minPages` pages and was
 * never analyzed (`reltuples` -1), or holds rows and has no statistics (a `VACUUM` counted
 * them, the erasure's for one), or has grown by more than a fifth since (its size against
 * the `relpages` last recorded). A table of dead rows only gets no statistics from `ANALYZE`,
 * and is not analyzed again for it. Smaller tables are cheap to plan badly, and a fresh server's start
 * stays free of `ANALYZE`. Not PostgreSQL's count of rows changed since (what autovacuum
 * reads): a writer's counts reach it up to a second after its commit (on PGlite, at the end
 * of a statement a second or more after the last report), so an `ANALYZE` in that second was
 * followed by another one. (The vacuum of vacuum-where-needed.ts does read it, to analyze a
 * table it vacuums, but leaves out the tables this check has just analyzed.)
 */
import type { SqlClient } from './client.ts';
import { quotedIdentifier } from './identifier.ts';

/** 10 pages of 8 KB: a few hundred rows. */
const minPages = 10;

/** Tables of the store's schema whose statistics are missing or stale. */
const staleTables = `
  select c.relname as name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) size
   where n.nspname = current_schema() and c.relkind = 'r'
     and size.pages >= $1
     and pg_has_role(c.relowner, 'USAGE')
     and (c.reltuples < 0
          or (c.reltuples > 0 and not exists (select 1 from pg_stats p where p.schemaname = n.nspname and p.tablename = c.relname))
          or size.pages > c.relpages * 1.2)
   order by c.relname`;

/**
 * `ANALYZE` of every table whose statistics are missing or stale; the tables analyzed. One
 * process at a time per store (an advisory lock on its schema; another process's run makes
 * this one return at once with nothing done).
 */
export async function gatherStaleStatistics(client: SqlClient): Promise<string[]> {
  return client.transaction(async (tx) => {
    const [lock] = await tx.query<{ locked: boolean }>(
      "select pg_try_advisory_xact_lock(hashtext('ocs:planner-statistics:' || current_schema())) as locked",
    );
    if (!lock?.locked) return [];
    const tables = (await tx.query<{ name: string }>(staleTables, [minPages])).map((row) => row.name);
    if (tables.length === 0) return [];
    // Never waits for another session's lock (a VACUUM, an index built concurrently, a
    // migration): a table locked now is skipped and found stale at the next check, and a stop
    // of the server is not held up by a wait.
    await tx.query("set local lock_timeout = '2s'");
    // The names come from pg_class: quoted as identifiers all the same.
    await tx.query(`analyze (skip_locked) ${tables.map(quotedIdentifier).join(', ')}`);
    return tables;
  });
}
