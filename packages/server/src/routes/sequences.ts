/**
 * Tag Sequences, the writes: `PUT /campaigns/{campaign_id}/sequence` and
 * `PATCH /campaigns/{campaign_id}/sequence/steps/{step_id}`.
 */
import { assertValidSequence } from '../domain/sequence-rules.ts';
import { findSteps, hasVariationB, storedSequence } from '../domain/sequence-steps.ts';
import { ApiError } from '../http/api-error.ts';
import type { Sequence } from '../store/records.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

export const sequenceHandlers: PartialHandlers = {
  async replaceSequence({ path, body, auth, now }, { store }) {
    // An empty variation_b is no variation_b: the stored sequence says so by leaving it out.
    const { variation_b, ...rest } = body.sequence;
    const sequence: Sequence = variation_b && variation_b.length > 0 ? { ...rest, variation_b } : rest;
    assertValidSequence(sequence);
    const at = now.toISOString();
    return store.transaction(async (tx) => {
      const campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      // The row is locked, so the version read is still current; the compare-and-swap keeps
      // the version counter moving for step updates that read before this write.
      const saved = await tx.campaigns.replaceSequence(
        auth.organization.id,
        campaign.id,
        sequence,
        campaign.sequence_version,
        at,
      );
      if (saved.outcome !== 'saved') throw new Error(`sequence of locked campaign ${campaign.id}: ${saved.outcome}`);
      if (!hasVariationB(sequence) && campaign.ab_testing_enabled) {
        // Without a variation_b there is nothing to test: every new lead gets arm a.
        await tx.campaigns.update(auth.organization.id, campaign.id, { ab_testing_enabled: false, updated_at: at });
      }
      return {
        status: 200,
        body: { success: true, message: 'Sequence replaced', campaign_id: campaign.id, sequence },
      };
    });
  },

  async updateSequenceStep({ path, body, auth, now }, { store }) {
    const stepId = path.step_id;
    // No lock: the save is a compare-and-swap on the version read here, so a write that
    // lands in between is detected (SEQUENCE_MODIFIED) instead of silently overwritten.
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const current = storedSequence(campaign.sequence);
    if (!current) {
      throw new ApiError(
        400,
        'NO_SEQUENCE',
        `Campaign ${campaign.id} has no sequence. Create one with PUT /v1/campaigns/${campaign.id}/sequence.`,
      );
    }
    const next = structuredClone(current);
    const matches = findSteps(next, stepId);
    const [target] = matches;
    if (!target) {
      throw new ApiError(
        404,
        'STEP_NOT_FOUND',
        `No step with id ${stepId} in the sequence of campaign ${campaign.id} (branches included).`,
        { details: { step_id: stepId } },
      );
    }
    if (matches.length > 1) {
      const where = [...new Set(matches.map((m) => `variation_${m.variation}`))].join(' and ');
      throw new ApiError(
        409,
        'STEP_ID_AMBIGUOUS',
        `Step id ${stepId} is used by ${matches.length} steps (in ${where}) of a sequence stored before step IDs had to be unique; replace the sequence with PUT /v1/campaigns/${campaign.id}/sequence to give each step its own ID.`,
        { details: { step_id: stepId } },
      );
    }
    // `target.step` is the step inside `next`: changing it changes the copy.
    Object.assign(target.step, body.updates);
    assertValidSequence(next, 'sequence', { step_id: stepId });
    const saved = await store.campaigns.replaceSequence(
      auth.organization.id,
      campaign.id,
      next,
      campaign.sequence_version,
      now.toISOString(),
    );
    if (saved.outcome === 'not_found') {
      throw new ApiError(404, 'CAMPAIGN_NOT_FOUND', `Campaign ${campaign.id} not found.`);
    }
    if (saved.outcome === 'modified') {
      throw new ApiError(
        409,
        'SEQUENCE_MODIFIED',
        'The sequence changed after it was read. Retrieve the campaign and retry.',
        { details: { step_id: stepId } },
      );
    }
    return { status: 200, body: { success: true, message: `Step ${stepId} updated`, campaign_id: campaign.id } };
  },
};
