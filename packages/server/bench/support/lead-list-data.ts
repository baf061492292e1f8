/**
 * Bulk set-up for list benches and plan checks: `campaignLeads` leads enrolled in one campaign
 * plus `otherLeads` leads of the same organization outside it, written with a few
 * `insert ... select generate_series` statements (never through the API), never ANALYZEd.
 * Leads are created one second apart, newest last; every 10,000th enrolment is removed and
 * every 10,000th enrolled lead erased (both absent from the list): 100,020 enrolled leads list
 * 100,000.
 */
import type { SqlClient } from '../../src/store/sql/client.ts';

export interface LeadListData {
  campaignId: string;
  /** Leads the campaign lists. */
  listed: number;
  /** Live leads of the organization. */
  liveLeads: number;
}

export async function buildLeadListData(
  client: SqlClient,
  organizationId: string,
  ownerId: string,
  campaignLeads: number,
  otherLeads: number,
): Promise<LeadListData> {
  const campaignId = crypto.randomUUID();
  const at = '2026-01-01T00:00:00.000Z';
  await client.query(
    `insert into campaigns (id, organization_id, owner_id, name, description, is_active, ab_testing_enabled,
       traffic_split, custom_fields, enabled_accounts, responder_enabled, sequence, sequence_version, created_at, updated_at)
     values ($1, $2, $3, 'Bench list', '', false, false, 50, '{}'::jsonb, '[]'::jsonb, false, '[]'::jsonb, 0, $4, $4)`,
    [campaignId, organizationId, ownerId, at],
  );
  const total = campaignLeads + otherLeads;
  // Leads i = 1..total, created i seconds after `at`.
  await client.query(
    `insert into leads (id, organization_id, email, first_name, last_name, company, custom_fields, deleted_at, created_at, updated_at)
     select gen_random_uuid(), $1, 'lead-' || i || '@list.example', 'Lead', 'Number ' || i, 'Bench Co', '{}'::jsonb,
            null, $2::timestamptz + i * interval '1 second', $2::timestamptz + i * interval '1 second'
       from generate_series(1, $3::int) as i`,
    [organizationId, at, total],
  );
  // Interleaved: the n-th lead is outside the campaign when n % k = 0 and n / k <= otherLeads,
  // k = total / otherLeads.
  const every = otherLeads > 0 ? Math.floor(total / otherLeads) : 0;
  await client.query(
    `insert into enrolments (id, organization_id, campaign_id, lead_id, status, variation, enrolled_at, removed_at,
                             lead_created_at, lead_deleted)
     select gen_random_uuid(), $1, $2, l.id, 'not_contacted', null, l.created_at, null, l.created_at, false
       from (select id, created_at, row_number() over (order by created_at) as n from leads where organization_id = $1) l
      where $3::int = 0 or l.n % $3::int <> 0 or l.n / $3::int > $4::int`,
    [organizationId, campaignId, every, otherLeads],
  );
  const [{ enrolled } = { enrolled: 0 }] = await client.query<{ enrolled: number }>(
    'select count(*)::int as enrolled from enrolments where campaign_id = $1',
    [campaignId],
  );
  if (enrolled !== campaignLeads) throw new Error(`enrolled ${enrolled} leads, wanted ${campaignLeads}`);
  // Every 1,000th enrolment removed; every 1,000th (offset 500) enrolled lead erased as the store does.
  await client.query(
    `with e as (select id, row_number() over (order by lead_created_at) as n from enrolments where campaign_id = $1)
     update enrolments set removed_at = now() where id in (select id from e where n % 10000 = 0)`,
    [campaignId],
  );
  await client.query(
    `with e as (select lead_id, row_number() over (order by lead_created_at) as n from enrolments where campaign_id = $1),
          d as (update leads set email = null, first_name = null, last_name = null, company = null,
                       deleted_at = now(), updated_at = now()
                 where id in (select lead_id from e where n % 10000 = 5000) returning id)
     update enrolments set lead_deleted = true where lead_id in (select id from d)`,
    [campaignId],
  );
  const erased = Math.floor((campaignLeads + 5000) / 10000);
  return {
    campaignId,
    listed: campaignLeads - Math.floor(campaignLeads / 10000) - erased,
    liveLeads: total - erased,
  };
}
