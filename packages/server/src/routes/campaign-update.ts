/**
 * `PATCH /campaigns/{campaign_id}`: edit the writable fields, activate (gated by the
 * preflight verdict) or deactivate.
 */
import type { Preflight } from '../domain/preflight.ts';
import { ApiError } from '../http/api-error.ts';
import type { CampaignRecord } from '../store/records.ts';
import type { CampaignPatch } from '../store/types.ts';
import { campaignView } from '../views/campaign.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { runPreflight } from './preflight.ts';
import type { PartialHandlers } from './registry.ts';

export const campaignUpdateHandlers: PartialHandlers = {
  async updateCampaign({ path, body, auth, now }, { store }) {
    const at = now.toISOString();
    return store.transaction(async (tx) => {
      // The row lock makes concurrent edits and activations of this campaign take turns;
      // runPreflight's account locks do the same for campaigns sharing a sender account.
      const campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      const patch: CampaignPatch = {};
      if (body.name !== undefined) patch.name = body.name;
      if (body.description !== undefined) patch.description = body.description;
      if ('custom_fields' in body) patch.custom_fields = body.custom_fields ?? null;
      if (body.lead_database_filters !== undefined) patch.lead_database_filters = body.lead_database_filters;
      if (body.refill_policy !== undefined) patch.refill_policy = body.refill_policy;

      // Activating an active campaign, or deactivating an inactive one, changes no state.
      if (body.is_active === true && !campaign.is_active) {
        const verdict = await runPreflight(tx, campaign, { lockAccounts: true });
        if (!verdict.ok) throw preflightFailed(campaign, verdict);
        patch.is_active = true;
        patch.activated_at = at;
      } else if (body.is_active === false && campaign.is_active) {
        // Sending stops and the senders become free: both follow from is_active alone.
        patch.is_active = false;
      }

      let updated: CampaignRecord = campaign;
      if (Object.keys(patch).length > 0) {
        const saved = await tx.campaigns.update(auth.organization.id, campaign.id, { ...patch, updated_at: at });
        if (!saved) throw new Error(`campaign ${campaign.id} vanished while locked`);
        updated = saved;
      }
      const message =
        body.is_active === true
          ? 'Campaign activated'
          : body.is_active === false
            ? 'Campaign deactivated'
            : 'Campaign updated';
      return { status: 200, body: { success: true, message, campaign: campaignView(updated) } };
    });
  },
};

/** `409 PREFLIGHT_FAILED` with the blocking issues: what to fix before activating. */
function preflightFailed(campaign: CampaignRecord, verdict: Preflight): ApiError {
  const blocking = verdict.issues.filter((issue) => issue.severity === 'blocking');
  const codes = [...new Set(blocking.map((issue) => issue.code))].join(', ');
  const count = `${verdict.blocking_count} blocking preflight issue${verdict.blocking_count === 1 ? '' : 's'}`;
  return new ApiError(
    409,
    'PREFLIGHT_FAILED',
    `Campaign ${campaign.id} cannot be activated: ${count} (${codes}). Fix them (each issue's fix says how; GET /v1/campaigns/${campaign.id}/preflight shows the full report) and retry.`,
    { details: { issues: blocking, blocking_count: verdict.blocking_count } },
  );
}
