/**
 * Every paged list costs with its page (decision 0006, "Every list costs with its page"): a
 * page is one statement that counts the matching rows and walks an index in the answer's
 * order for `offset + limit` of them (`listPage`, rows.ts). That needs, for each list and each
 * of its filters, an index whose columns are the filter's equalities followed by the order:
 *
 * - `GET /accounts`: `connected_at nulls last, id collate "C"` (code-point order), alone and
 *   after `platform` or `status`; `sender_accounts_organization` (its first column only) goes.
 *   Its accounts' campaigns (`listCampaignUses`) are found through a GIN index of
 *   `campaigns.enabled_accounts` (`?`, one lookup per account), not by testing every campaign
 *   of the organization against every account of the page. Without `fastupdate`: campaigns
 *   are written seldom, and a pending list (up to 4 MB of entries not yet merged, until a
 *   vacuum) is read whole by every lookup; on PGlite, 100,000 campaigns inserted after the
 *   index made the planner read the table once per account instead (5.4 s for 100 accounts).
 * - `GET /campaigns?is_active=`, `GET /crm/deals?stage_id=` and `?owner_id=`,
 *   `GET /sandbox/campaigns/{id}/messages?lead_id=`, `GET /campaigns/{id}/webhooks` and
 *   `GET /crm/pipelines` (active ones only: a partial index).
 *
 * The other lists have theirs already: `campaigns_newest`, `deals_newest` (and `deals_lead`,
 * a lead's few deals), `deliveries_campaign`, `sandbox_messages_campaign`.
 */
export const migration020 = {
  version: 20,
  name: 'lists-cost-with-the-page',
  sql: /* sql */ `
drop index sender_accounts_organization;
create index sender_accounts_listed on sender_accounts (organization_id, connected_at nulls last, id collate "C");
create index sender_accounts_listed_platform on sender_accounts
  (organization_id, platform, connected_at nulls last, id collate "C");
create index sender_accounts_listed_status on sender_accounts
  (organization_id, status, connected_at nulls last, id collate "C");
create index campaigns_enabled_accounts on campaigns using gin (enabled_accounts) with (fastupdate = off);
create index campaigns_newest_by_state on campaigns (organization_id, is_active, created_at desc, id desc);
create index deals_newest_by_stage on deals (organization_id, stage_id, created_at desc, id desc);
create index deals_newest_by_owner on deals (organization_id, owner_id, created_at desc, id desc);
create index sandbox_messages_campaign_lead on sandbox_messages (campaign_id, lead_id, sent_at, id);
create index webhooks_oldest on webhooks (campaign_id, created_at, id);
create index pipelines_active_oldest on pipelines (organization_id, created_at, id) where is_active;
`,
};
