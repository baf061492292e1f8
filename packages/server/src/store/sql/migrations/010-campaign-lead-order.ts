/**
 * Lists at scale (issue 11, decision 0006): `GET /v1/leads?campaign_id=` pages by walking one
 * index of enrolments in the order of the answer (the lead's `created_at desc, id desc`), so
 * each enrolment carries its lead's sort key and whether the lead is deleted (erasure keeps
 * the enrolment for analytics; the list must not show it). Both are written by the store:
 * `lead_created_at` when the enrolment is inserted (a lead's `created_at` never changes),
 * `lead_deleted` when the lead is erased. Existing enrolments are backfilled here.
 */
export const migration010 = {
  version: 10,
  name: 'campaign-lead-order',
  sql: /* sql */ `
alter table enrolments add column lead_created_at timestamptz;
alter table enrolments add column lead_deleted boolean not null default false;
update enrolments e set lead_created_at = l.created_at, lead_deleted = l.deleted_at is not null
  from leads l where l.id = e.lead_id;
alter table enrolments alter column lead_created_at set not null;
-- The live enrolments of live leads of a campaign, newest lead first: one range per page and
-- per count, whatever the statistics say.
create index enrolments_campaign_leads on enrolments (campaign_id, lead_created_at desc, lead_id desc)
  where removed_at is null and not lead_deleted;
`,
};
