/** Finding a campaign named in a request, shared by the campaign operations and the engine's sandbox. */
import { ApiError } from '../http/api-error.ts';
import type { CampaignRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';

/** The campaign, or `404 CAMPAIGN_NOT_FOUND` (also for another organization's campaign). */
export async function findCampaign(
  store: Store,
  organizationId: string,
  campaignId: string,
  options?: { forUpdate?: boolean },
): Promise<CampaignRecord> {
  const campaign = await store.campaigns.get(organizationId, campaignId, options);
  if (!campaign) throw new ApiError(404, 'CAMPAIGN_NOT_FOUND', `Campaign ${campaignId} not found.`);
  return campaign;
}
