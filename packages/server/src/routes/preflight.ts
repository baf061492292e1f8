/**
 * `GET /campaigns/{campaign_id}/preflight`, and the data the preflight rules look at,
 * gathered here for both that report and activation (campaign-update.ts).
 */
import { evaluatePreflight, type Preflight } from '../domain/preflight.ts';
import type { CampaignRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

export const preflightHandlers: PartialHandlers = {
  async getCampaignPreflight({ path, auth }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    return { status: 200, body: await runPreflight(store, campaign) };
  },
};

/**
 * The preflight verdict of `campaign` now. With `lockAccounts` (inside a transaction), the
 * assigned accounts' rows stay locked until it ends: an activation holding them is the only
 * one that can make those accounts busy, so its account-conflict check cannot be overtaken.
 */
export async function runPreflight(
  store: Store,
  campaign: CampaignRecord,
  options: { lockAccounts?: boolean } = {},
): Promise<Preflight> {
  const organizationId = campaign.organization_id;
  const accountIds = campaign.enabled_accounts;
  // Sequential on purpose: a transaction's queries share one connection.
  const accounts = await store.accounts.getMany(organizationId, accountIds, { forUpdate: options.lockAccounts });
  const conflicts = await store.campaigns.findActiveUsingAccounts(organizationId, accountIds, campaign.id);
  const aiFields = await store.aiFields.list(campaign.id);
  const enrolledLeads = await store.enrolments.countForCampaign(campaign.id);
  const leads = enrolledLeads > 0 ? await store.enrolments.listLeadsForCampaign(campaign.id) : [];
  const organization = await store.organizations.get(organizationId);
  return evaluatePreflight({
    campaign,
    aiFields,
    accounts,
    conflicts,
    enrolledLeads,
    leads,
    subscriptionActive: organization?.subscription_active ?? false,
  });
}
