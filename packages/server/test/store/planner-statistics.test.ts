/**
 * The planner's statistics the server gathers itself (store/sql/planner-statistics.ts,
 * decision 0006): a table filled without `ANALYZE` (bulk SQL, as a restore or a load does)
 * is analyzed; a table analyzed since is left alone until it grows by more than a fifth;
 * small tables are never analyzed. On PGlite, and on PostgreSQL when DATABASE_URL is set
 * (whose autovacuum is off on this machine: nothing else gathers them there either).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../src/http/logger.ts';
import { serveLogging } from '../support/serve-logging.ts';
import { leadDataFields } from '../../src/domain/lead-rules.ts';
import { createApiKey, createOrganization } from '../../src/seed/organizations.ts';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import { buildLeadListData } from '../../bench/support/lead-list-data.ts';
import { sqlBackends, sqlStoreWithOrganization } from '../support/sql-store-with-organization.ts';

describe.each(sqlBackends)('planner statistics [$name]', ({ name }) => {
  const backend = sqlStoreWithOrganization(name, 'planner_stats');
  afterEach(() => backend.close());
  /** The backend's store (closed after each test) with one organization. */
  const openWithOrganization = () => backend.open();

  /** Tables of the store's schema that have statistics. */
  const analyzed = async (s: SqlStore) =>
    (
      await s.client.query<{ name: string }>(
        'select distinct tablename as name from pg_stats where schemaname = current_schema() order by 1',
      )
    ).map((row) => row.name);

  it(
    'analyzes the tables filled without statistics, then only those grown by more than a fifth',
    { timeout: 120_000 },
    async () => {
      const { store: opened, org, ownerId } = await openWithOrganization();
      // A fresh store: every table is small, nothing to do.
      expect(await opened.refreshStatistics()).toEqual([]);
      expect(await analyzed(opened)).toEqual([]);

      await buildLeadListData(opened.client, org.id, ownerId, 3000, 1000);
      expect(await opened.refreshStatistics()).toEqual(['enrolments', 'leads']);
      expect(await analyzed(opened)).toEqual(expect.arrayContaining(['enrolments', 'leads']));
      // Nothing changed since: nothing to do.
      expect(await opened.refreshStatistics()).toEqual([]);

      // Twice the leads (another organization's campaign of 4,000): both tables have grown by far more than a fifth.
      const otherOwnerId = crypto.randomUUID();
      const other = await createOrganization(opened, {
        name: 'Contoso Sales',
        members: [{ id: otherOwnerId, email: 'owner@contoso.example', name: 'Carl Owner', role: 'owner' }],
      });
      await buildLeadListData(opened.client, other.id, otherOwnerId, 4000, 0);
      expect(await opened.refreshStatistics()).toEqual(['enrolments', 'leads']);
      expect(await opened.refreshStatistics()).toEqual([]);
    },
  );

  it('copies no lead data into the statistics (decision 0003): an erasure leaves none behind there', async () => {
    const { store: opened, org, ownerId } = await openWithOrganization();
    // Leads `lead-<n>@list.example`, named `Number <n>`, of the company `Bench Co`.
    await buildLeadListData(opened.client, org.id, ownerId, 3000, 1000);
    expect(await opened.refreshStatistics()).toEqual(['enrolments', 'leads']);
    const stats = await opened.client.query<{ tablename: string; attname: string; values: string | null }>(
      `select tablename, attname, concat_ws(' ', most_common_vals::text, histogram_bounds::text) as values
         from pg_stats where schemaname = current_schema() and tablename in ('leads', 'leads_email')`,
    );
    // Statistics there are, for the columns the plans need.
    expect(stats.map((row) => row.attname)).toEqual(expect.arrayContaining(['organization_id', 'created_at']));
    const personal = stats.filter((row) => /list\.example|Number \d|Bench Co/.test(row.values ?? ''));
    expect(personal).toEqual([]);
    expect(stats.map((row) => `${row.tablename}.${row.attname}`)).not.toEqual(
      expect.arrayContaining(['leads.email', 'leads.last_name', 'leads.company', 'leads.custom_fields']),
    );
    // Every data field of a lead (a new one too) is kept out of the statistics.
    const targets = await opened.client.query<{ attname: string; target: number | null }>(
      `select attname, attstattarget::int as target from pg_attribute
        where attrelid = 'leads'::regclass and attnum > 0 and not attisdropped`,
    );
    const sampled = targets.filter(
      (row) => [...leadDataFields, 'custom_fields'].includes(row.attname) && row.target !== 0,
    );
    expect(sampled).toEqual([]);
  }, 120_000);
});

/** Until serve's keeper has logged that it gathered statistics. */
async function untilGathered(lines: LogEntry[]): Promise<void> {
  await vi.waitFor(() => expect(lines.some((line) => line.message === 'planner statistics gathered')).toBe(true), {
    timeout: 30_000,
    interval: 50,
  });
}

/** The keeper told the operator once, of these tables. */
function expectToldOnce(lines: LogEntry[], tables: string[]): void {
  expect(lines.filter((line) => line.message.startsWith('planner statistics'))).toEqual([
    { level: 'info', message: 'planner statistics gathered', tables, duration_ms: expect.any(Number) as unknown },
  ]);
}

it('is kept by serve: a table filled while the server was down is analyzed once it listens, and the operator is told', async () => {
  const backend = sqlStoreWithOrganization('pglite', 'statistics_serve');
  const { store, org, ownerId } = await backend.open();
  try {
    await buildLeadListData(store.client, org.id, ownerId, 3000, 1000);
    const { running, lines } = await serveLogging({ store, statistics: { firstMs: 0, intervalMs: 50 } });
    try {
      await untilGathered(lines);
      // Then checked again every 50 ms, and told only when something was analyzed.
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await running.close({ graceMs: 0 });
    }
    expectToldOnce(lines, ['enrolments', 'leads']);
  } finally {
    await backend.close();
  }
}, 120_000);

it('is kept by serve after a batch import: the leads imported are analyzed soon after, not at the next interval', async () => {
  const store = await openSqlStore();
  try {
    const org = await createOrganization(store, {
      name: 'Northwind Outreach',
      members: [{ email: 'owner@northwind.example', name: 'Olivia Owner', role: 'owner' }],
    });
    const { key } = await createApiKey(store, { organizationId: org.id });
    const { running, lines } = await serveLogging({
      store,
      // Only the import can bring a check within the test's time.
      statistics: { firstMs: 600_000, intervalMs: 600_000, settleMs: 50 },
    });
    try {
      const leads = Array.from({ length: 1500 }, (_, i) => ({
        email: `lead-${i}@imported.example`,
        first_name: 'Ada',
        last_name: `Lovelace ${i}`,
        company: 'Analytical Engines',
      }));
      const answer = await fetch(`${running.url}/v1/leads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ leads }),
      });
      expect(answer.status, await answer.clone().text()).toBe(207);
      expect(((await answer.json()) as { created: number }).created).toBe(1500);
      await untilGathered(lines);
    } finally {
      await running.close({ graceMs: 0 });
    }
    expectToldOnce(lines, ['leads']);
  } finally {
    await store.close();
  }
}, 120_000);
