/**
 * Tag Sequences, A/B testing: `POST /campaigns/{campaign_id}/ab-testing` (on or off) and
 * `POST /campaigns/{campaign_id}/ab-testing/promote` (end the test with a winner).
 */
import { hasVariationB, storedSequence } from '../domain/sequence-steps.ts';
import { ApiError } from '../http/api-error.ts';
import type { Schemas } from '../openapi/types.ts';
import type { CampaignRecord } from '../store/records.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

/** Percent of new leads on variation A when `traffic_split` is not sent. */
export const defaultTrafficSplit = 50;

export const abTestingHandlers: PartialHandlers = {
  async setAbTesting({ path, body, auth, now }, { store }) {
    return store.transaction(async (tx) => {
      const campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      if (body.enabled && !hasVariationB(storedSequence(campaign.sequence))) {
        throw new ApiError(
          409,
          'VARIATION_B_MISSING',
          `Campaign ${campaign.id} has no variation_b with steps. Add one with PUT /v1/campaigns/${campaign.id}/sequence first.`,
        );
      }
      // Turning on starts a new test (a new split, no winner yet); turning off keeps the split.
      const patch = body.enabled
        ? { ab_testing_enabled: true, traffic_split: body.traffic_split ?? defaultTrafficSplit, ab_winner: null }
        : { ab_testing_enabled: false };
      const updated = await tx.campaigns.update(auth.organization.id, campaign.id, {
        ...patch,
        updated_at: now.toISOString(),
      });
      if (!updated) throw new Error(`campaign ${campaign.id} vanished while locked`);
      const message = body.enabled ? 'A/B testing enabled' : 'A/B testing disabled';
      return { status: 200, body: abTestingResult(updated, message) };
    });
  },

  async promoteAbVariation({ path, body, auth, now }, { store }) {
    const at = now.toISOString();
    return store.transaction(async (tx) => {
      const campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      const sequence = storedSequence(campaign.sequence);
      if (!sequence || !hasVariationB(sequence)) {
        throw new ApiError(
          409,
          'VARIATION_B_MISSING',
          `Campaign ${campaign.id} has no variation_b with steps; there is no A/B test to promote.`,
        );
      }
      // The winner's steps keep their IDs; the other arm's steps go.
      const { variation_a, variation_b, ...rest } = sequence;
      const promoted = { ...rest, variation_a: body.variation === 'b' ? (variation_b ?? []) : variation_a };
      const saved = await tx.campaigns.replaceSequence(
        auth.organization.id,
        campaign.id,
        promoted,
        campaign.sequence_version,
        at,
      );
      if (saved.outcome !== 'saved') throw new Error(`sequence of locked campaign ${campaign.id}: ${saved.outcome}`);
      const updated = await tx.campaigns.update(auth.organization.id, campaign.id, {
        ab_testing_enabled: false,
        ab_winner: body.variation,
        updated_at: at,
      });
      if (!updated) throw new Error(`campaign ${campaign.id} vanished while locked`);
      const message = `Variation ${body.variation} promoted to variation_a; A/B testing disabled`;
      return { status: 200, body: abTestingResult(updated, message) };
    });
  },
};

function abTestingResult(campaign: CampaignRecord, message: string): Schemas['AbTestingResult'] {
  return {
    success: true,
    message,
    campaign_id: campaign.id,
    ab_testing_enabled: campaign.ab_testing_enabled,
    traffic_split: campaign.traffic_split,
    winner: campaign.ab_winner,
  };
}
