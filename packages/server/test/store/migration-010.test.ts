/**
 * Migration 010 (decision 0006) backfills the enrolments that exist when it runs: each gets
 * its lead's `created_at` and whether the lead is deleted, so a campaign's list is the same
 * before and after it. On PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import { migrate, openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import { migrations } from '../../src/store/sql/migrations/index.ts';
import { enrolmentRecord, insertCampaign, leadRecord } from '../support/lead-fixtures.ts';

const databaseUrl = process.env.DATABASE_URL;
const backends = [{ name: 'pglite' }, ...(databaseUrl ? [{ name: 'postgres' }] : [])];

describe.each(backends)('migration 010 [$name]', ({ name }) => {
  let store: SqlStore | undefined;
  const schema = `migration_010_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  afterEach(async () => {
    if (store && name === 'postgres') await store.client.query(`drop schema if exists "${schema}" cascade`);
    await store?.close();
    store = undefined;
  });

  it('backfills the lead sort key and deletion of existing enrolments', async () => {
    store =
      name === 'postgres'
        ? await openSqlStore({ databaseUrl, schema, skipMigrations: true })
        : await openSqlStore({ skipMigrations: true });
    const { client } = store;
    await migrate(
      client,
      migrations.filter((migration) => migration.version < 10),
    );
    const ownerId = crypto.randomUUID();
    const org = await createOrganization(store, {
      name: 'Northwind Outreach',
      members: [{ id: ownerId, email: 'owner@northwind.example', name: 'Olivia Owner', role: 'owner' }],
    });
    const campaign = await insertCampaign(store, org.id, ownerId);
    const leads = ['2026-10-01', '2026-10-03', '2026-10-02'].map((day, i) =>
      leadRecord(org.id, { email: `lead-${i}@example.com`, created_at: `${day}T09:00:00.000Z` }),
    );
    for (const lead of leads) await store.leads.insert(lead);
    // Written as the store before 010 wrote them (no lead_* columns yet).
    for (const lead of leads) {
      const e = enrolmentRecord(lead, campaign.id);
      await client.query(
        `insert into enrolments (id, organization_id, campaign_id, lead_id, status, variation, enrolled_at, removed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [e.id, e.organization_id, e.campaign_id, e.lead_id, e.status, e.variation, e.enrolled_at, e.removed_at],
      );
    }
    // Erased before 010 (only the lead row said so).
    await client.query('update leads set email = null, deleted_at = $2 where id = $1', [
      leads[0]?.id,
      '2026-10-05T09:00:00.000Z',
    ]);

    expect(await migrate(client)).toContain(10);
    const rows = await client.query<{ lead_id: string; lead_created_at: string; lead_deleted: boolean }>(
      'select lead_id, lead_created_at, lead_deleted from enrolments order by lead_created_at',
    );
    expect(rows).toEqual([
      { lead_id: leads[0]?.id, lead_created_at: '2026-10-01T09:00:00.000Z', lead_deleted: true },
      { lead_id: leads[2]?.id, lead_created_at: '2026-10-02T09:00:00.000Z', lead_deleted: false },
      { lead_id: leads[1]?.id, lead_created_at: '2026-10-03T09:00:00.000Z', lead_deleted: false },
    ]);
    const list = await store.leads.list(org.id, { campaign_id: campaign.id, limit: 10, offset: 0 });
    expect(list).toEqual({ items: [leads[1], leads[2]], total: 2 });
    expect(await store.enrolments.countForCampaign(campaign.id)).toBe(2);
  });
});
