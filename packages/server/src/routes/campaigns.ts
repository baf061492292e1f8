/** Tag Campaigns: list, create, get (this file) and update with activation (campaign-update.ts). */
import { assertValidSequence } from '../domain/sequence-rules.ts';
import { ApiError } from '../http/api-error.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { CampaignRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { campaignView } from '../views/campaign.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';
import { newId } from '../domain/ids.ts';

export const campaignHandlers: PartialHandlers = {
  async listCampaigns({ query, auth }, { store }) {
    const page = pageRequest(query, 500);
    const result = await store.campaigns.list(auth.organization.id, { ...page, is_active: query.is_active });
    const campaigns = { ...result, items: result.items.map(campaignView) };
    return { status: 200, body: pageEnvelope('campaigns', campaigns, page, 'Campaigns retrieved') };
  },

  async createCampaign({ body, auth, now }, { store }) {
    if (body.sequence) assertValidSequence(body.sequence);
    const owner = await campaignOwner(store, auth.organization.id);
    const at = now.toISOString();
    const record: CampaignRecord = {
      id: newId(),
      organization_id: auth.organization.id,
      owner_id: owner,
      name: body.name,
      description: body.description ?? '',
      is_active: false,
      ab_testing_enabled: false,
      traffic_split: 50,
      ab_winner: null,
      custom_fields: {},
      enabled_accounts: [],
      lead_database_filters: null,
      refill_policy: null,
      responder_enabled: false,
      sequence: body.sequence ?? [],
      sequence_version: 0,
      activated_at: null,
      created_at: at,
      updated_at: at,
    };
    await store.campaigns.insert(record);
    return {
      status: 201,
      body: {
        success: true,
        message: 'Campaign created in draft state',
        campaign_id: record.id,
        campaign: campaignView(record),
      },
    };
  },

  async getCampaign({ path, auth }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    return { status: 200, body: { success: true, campaign: campaignView(campaign) } };
  },
};

/** A campaign needs an owner: the organization's first owner or admin, else its first member. */
async function campaignOwner(store: Store, organizationId: string): Promise<string> {
  const members = await store.organizations.listMembers(organizationId);
  const owner = members.find((m) => m.role === 'owner') ?? members.find((m) => m.role === 'admin') ?? members[0];
  if (!owner) {
    throw new ApiError(
      500,
      'ORG_HAS_NO_MEMBERS',
      'The organization has no members to own the campaign. Add a member first.',
    );
  }
  return owner.id;
}
