/**
 * The vacuum the server runs where PostgreSQL's autovacuum does not (store/sql/vacuum-where-needed.ts,
 * decision 0006, "Dead row versions"): a table filled by inserts or whose rows were rewritten
 * is vacuumed (and analyzed, unless the statistics check just did it) once autovacuum's
 * thresholds are passed, and left alone until they are passed again. On PGlite, where nothing
 * else ever vacuums, and on PostgreSQL when DATABASE_URL is set: there the store vacuums where
 * `autovacuum` is off (this machine's server) or off for the table, and leaves the rest to
 * autovacuum.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveLogging } from '../support/serve-logging.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import { buildLeadListData } from '../../bench/support/lead-list-data.ts';
import { sqlBackends, sqlStoreWithOrganization } from '../support/sql-store-with-organization.ts';

interface TableCounts {
  dead: number;
  /** Rows updated since the table was created (a vacuum does not reset it). */
  updated: number;
  inserted: number;
  vacuums: number;
  analyzes: number;
  allVisiblePages: number;
}

/** PostgreSQL's counts of `table` (in the store's schema). */
async function countsOf(store: SqlStore, table: string): Promise<TableCounts> {
  const [row] = await store.client.query<TableCounts>(
    `select s.n_dead_tup::int as dead, s.n_tup_upd::int as updated, s.n_ins_since_vacuum::int as inserted, s.vacuum_count::int as vacuums,
            s.analyze_count::int as analyzes, c.relallvisible::int as "allVisiblePages"
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = current_schema() and s.relname = $1`,
    [table],
  );
  if (!row) throw new Error(`no counts for ${table}`);
  return row;
}

/**
 * Until `table`'s counts satisfy `ready`: a writer reports them up to a second after its
 * statements (PGlite at the end of a later statement, which the forced flush brings about).
 */
async function untilCounted(store: SqlStore, table: string, ready: (counts: TableCounts) => boolean): Promise<void> {
  await vi.waitFor(
    async () => {
      await store.client.query('select pg_stat_force_next_flush()');
      expect(ready(await countsOf(store, table))).toBe(true);
    },
    { timeout: 15_000, interval: 100 },
  );
}

describe.each(sqlBackends)('vacuum where autovacuum does not run [$name]', ({ name }) => {
  const backend = sqlStoreWithOrganization(name, 'vacuum_needed');
  afterEach(() => backend.close());
  /** The backend's store (closed after each test) with one organization. */
  const openWithOrganization = () => backend.open();

  /** Whether autovacuum runs for the tables of this store (never on PGlite). */
  const autovacuumRuns = async (s: SqlStore) =>
    s.kind === 'postgres' &&
    (await s.client.query<{ setting: string }>("select current_setting('autovacuum') as setting"))[0]?.setting === 'on';

  it(
    'vacuums and analyzes tables filled or rewritten past autovacuum’s thresholds, then leaves them until they are again',
    { timeout: 120_000 },
    async () => {
      const { store: opened, org, ownerId } = await openWithOrganization();
      // Where autovacuum runs (a server with it on), the store leaves every table to it.
      const runs = await autovacuumRuns(opened);
      // The few rows of a new organization: below every threshold.
      expect(await opened.vacuumWhereNeeded()).toEqual([]);

      // 4,000 leads, 2,000 of them enrolled: past the insert threshold (1,000 rows) of both tables.
      await buildLeadListData(opened.client, org.id, ownerId, 2000, 2000);
      await untilCounted(opened, 'leads', (counts) => counts.inserted >= 4000);
      await untilCounted(opened, 'enrolments', (counts) => counts.inserted >= 2000);
      const filled = await countsOf(opened, 'leads');
      expect(await opened.vacuumWhereNeeded()).toEqual(runs ? [] : ['enrolments', 'leads']);
      if (runs) return;
      const vacuumed = await countsOf(opened, 'leads');
      expect(vacuumed.vacuums).toBe(filled.vacuums + 1);
      // Changed by far more than a tenth since its (never gathered) statistics: analyzed in the vacuum.
      expect(vacuumed.analyzes).toBe(filled.analyzes + 1);
      expect(vacuumed.inserted).toBe(0);
      // The pages are marked all-visible, so a count can run as an index-only scan.
      expect(vacuumed.allVisiblePages).toBeGreaterThan(0);
      // Nothing changed since: nothing to do, and the statistics check finds them fresh.
      expect(await opened.vacuumWhereNeeded()).toEqual([]);
      expect(await opened.refreshStatistics()).toEqual([]);

      // Every lead rewritten once: 4,000 dead row versions, past 50 + a fifth of 4,000.
      await opened.client.query(`update leads set updated_at = updated_at + interval '1 millisecond'`);
      await untilCounted(opened, 'leads', (counts) => counts.dead >= 4000);
      expect(await opened.vacuumWhereNeeded()).toEqual(['leads']);
      const rewritten = await countsOf(opened, 'leads');
      expect(rewritten.dead).toBe(0);
      expect(rewritten.vacuums).toBe(vacuumed.vacuums + 1);
      expect(rewritten.analyzes).toBe(vacuumed.analyzes + 1);

      // 500 of them rewritten: below the threshold (850), left for later.
      await opened.client.query(
        `update leads set updated_at = updated_at + interval '1 millisecond'
          where id in (select id from leads order by id limit 500)`,
      );
      await untilCounted(opened, 'leads', (counts) => counts.dead >= 500);
      expect(await opened.vacuumWhereNeeded()).toEqual([]);
    },
  );

  it('vacuums a table whose autovacuum is turned off, but leaves its ANALYZE to the statistics check that just ran', async () => {
    const { store: opened, org, ownerId } = await openWithOrganization();
    // Whatever the server's own setting (PGlite has no autovacuum at all).
    await opened.client.query('alter table leads set (autovacuum_enabled = off)');
    await buildLeadListData(opened.client, org.id, ownerId, 0, 4000);
    await untilCounted(opened, 'leads', (counts) => counts.inserted >= 4000);
    const before = await countsOf(opened, 'leads');
    expect(await opened.vacuumWhereNeeded(['leads'])).toContain('leads');
    const after = await countsOf(opened, 'leads');
    expect(after.vacuums).toBe(before.vacuums + 1);
    expect(after.inserted).toBe(0);
    expect(after.analyzes).toBe(before.analyzes);
  }, 120_000);

  it('refuses inside a transaction, where VACUUM cannot run', async () => {
    const { store: opened } = await openWithOrganization();
    await expect(opened.transaction((tx) => tx.vacuumWhereNeeded())).rejects.toThrow(/outside a transaction/);
  });
});

it('is run by serve: rows rewritten while it listens are vacuumed at its next check, and the operator is told', async () => {
  const backend = sqlStoreWithOrganization('pglite', 'vacuum_serve');
  const { store, org, ownerId } = await backend.open();
  try {
    const { running, lines } = await serveLogging({ store, statistics: { firstMs: 0, intervalMs: 50 } });
    try {
      await buildLeadListData(store.client, org.id, ownerId, 0, 3000);
      await store.client.query(`update leads set updated_at = updated_at + interval '1 millisecond'`);
      await vi.waitFor(
        async () => {
          await store.client.query('select pg_stat_force_next_flush()');
          const counts = await countsOf(store, 'leads');
          // The rewrite is counted, and its 3,000 dead row versions are gone.
          expect(counts.updated).toBeGreaterThanOrEqual(3000);
          expect(counts.dead).toBe(0);
        },
        { timeout: 30_000, interval: 100 },
      );
      const vacuumed = lines.filter((line) => line.message === 'tables vacuumed').flatMap((line) => line.tables);
      expect(vacuumed).toContain('leads');
    } finally {
      await running.close({ graceMs: 0 });
    }
    expect(lines.filter((line) => line.level !== 'info')).toEqual([]);
  } finally {
    await backend.close();
  }
}, 120_000);
