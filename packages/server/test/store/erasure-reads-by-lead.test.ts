/**
 * An erasure reads the erased lead's deals and deliveries, not its organization's (migration
 * 015). Without an index led by `lead_id`, its `select ... for update` of each table read
 * every deal and every delivery of the organization, however few were the lead's. Counted
 * with PostgreSQL's per-transaction counters, in the erasure's own transaction: rows read by
 * sequential scans (`pg_stat_get_xact_tuples_returned`) and fetched through indexes
 * (`pg_stat_get_xact_tuples_fetched`). The tables are never analyzed, as on a server whose
 * autovacuum is off.
 */
import { expect, it } from 'vitest';
import { eraseLeadEverywhere } from '../../src/domain/erasure.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import { activityBuilder } from '../support/activity.ts';
import { describeSqlBackends } from '../support/backends.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';

const otherRows = 20_000;

describeSqlBackends('an erasure among many deals and deliveries', (store) => {
  it("reads the erased lead's rows, not the organization's", async () => {
    const fixtures = await deliveryFixtures(store());
    const { campaign } = fixtures;
    const organizationId = campaign.organization_id;
    const client = (store() as SqlStore).client;
    // Another lead of the organization holds 20,000 deals and 20,000 delivered deliveries.
    const other = fixtures.enrolment;
    await client.query(
      `insert into deliveries (id, organization_id, campaign_id, enrolment_id, lead_id, channel,
                               idempotency_key, body, status, attempts_made, created_at, delivered_at)
       select gen_random_uuid(), $1, $2, $3, $4, 'email', md5(n::text) || md5(n::text), '{}', 'delivered', 1, now(), now()
         from generate_series(1, $5::int) n`,
      [organizationId, campaign.id, other.id, other.lead_id, otherRows],
    );
    await client.query(
      `insert into deals (id, organization_id, name, lead_id, notes, created_at, updated_at)
       select gen_random_uuid(), $1, 'Deal ' || n, $2, 'Notes of ' || n, now(), now()
         from generate_series(1, $3::int) n`,
      [organizationId, other.lead_id, otherRows],
    );
    // The lead to erase: one delivery, one deal naming it.
    const builder = activityBuilder(store(), organizationId, campaign.owner_id ?? '');
    const erased = await builder.enrol(campaign, { status: 'active', variation: 'a' });
    await fixtures.enqueue({ enrolment_id: erased.id, lead_id: erased.lead_id });
    await client.query(
      `insert into deals (id, organization_id, name, lead_id, notes, created_at, updated_at)
       values (gen_random_uuid(), $1, 'Their deal', $2, $3, now(), now())`,
      [organizationId, erased.lead_id, `Call ${erased.lead.first_name ?? ''} back`],
    );

    const read = await store().transaction(async (tx) => {
      expect(await eraseLeadEverywhere(tx, organizationId, erased.lead_id, new Date().toISOString())).toBe(true);
      const [counts] = await (tx as SqlStore).client.query<{ deals: number; deliveries: number }>(
        `select (pg_stat_get_xact_tuples_returned('deals'::regclass)
                 + pg_stat_get_xact_tuples_fetched('deals'::regclass))::int as deals,
                (pg_stat_get_xact_tuples_returned('deliveries'::regclass)
                 + pg_stat_get_xact_tuples_fetched('deliveries'::regclass))::int as deliveries`,
      );
      return counts;
    });
    // The lead's own rows, read and then updated: a handful, not 20,000.
    expect(read?.deals).toBeLessThan(20);
    expect(read?.deliveries).toBeLessThan(20);

    // And the erasure did its work on them.
    const [deal] = await client.query<{ notes: string | null }>('select notes from deals where lead_id = $1', [
      erased.lead_id,
    ]);
    expect(deal?.notes ?? '').not.toContain(erased.lead.first_name ?? '\u0000');
  }, 60_000);
});
