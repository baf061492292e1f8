/** `POST /campaigns/{campaign_id}/preview`: render one arm's steps for a lead, sending nothing. */
import { stepChannel } from '../domain/channels.ts';
import {
  isPlainObject,
  leadFieldNames,
  leadPlaceholderValues,
  maxRenderedLength,
  type PlaceholderValues,
  type RenderBudget,
  renderBudget,
  RenderedTooLong,
  renderStepTexts,
} from '../domain/placeholders.ts';
import { walkSteps } from '../domain/sequence-rules.ts';
import { hasVariationB, storedSequence } from '../domain/sequence-steps.ts';
import { groupedDigits } from '../domain/grouped-digits.ts';
import { ApiError, validationError } from '../http/api-error.ts';
import type { Schemas } from '../openapi/types.ts';
import type { SequenceStep } from '../store/records.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { findLead } from '../lookups/lead.ts';
import type { PartialHandlers } from './registry.ts';

type PreviewMessage = Schemas['PreviewMessage'];

export const previewHandlers: PartialHandlers = {
  async previewCampaign({ path, body, auth }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const sequence = storedSequence(campaign.sequence);
    if (!sequence) {
      throw new ApiError(400, 'NO_SEQUENCE', `Campaign ${campaign.id} has no sequence to preview.`);
    }
    // The document's default; the validator checks values but does not fill defaults in.
    const variation = body.variation ?? 'a';
    if (variation === 'b' && !hasVariationB(sequence)) {
      throw new ApiError(
        409,
        'VARIATION_B_MISSING',
        `Campaign ${campaign.id} has no variation_b with steps to preview.`,
      );
    }
    let stored: Record<string, unknown> = {};
    if (body.lead_id) stored = { ...(await findLead(store, auth.organization.id, body.lead_id)) };
    const lead = mergeLead(stored, body.lead ?? {});
    const aiFields = await store.aiFields.list(campaign.id);
    const values = leadPlaceholderValues(lead, aiFields);

    let steps = [...walkSteps(sequence)].filter((located) => located.variation === variation);
    if (body.step_id !== undefined && body.step_id !== null) {
      const stepId = body.step_id;
      steps = steps.filter((located) => located.step.id === stepId);
      if (steps.length === 0) {
        throw new ApiError(
          404,
          'STEP_NOT_FOUND',
          `No step with id ${stepId} in variation ${variation} of campaign ${campaign.id} (branches included).`,
          { details: { step_id: stepId } },
        );
      }
    }
    // One budget for every message of the answer: a long sequence cannot multiply it. For one
    // step it is that message's, the engine's budget: the preview refuses what is not sent.
    const budget = renderBudget();
    let messages: PreviewMessage[];
    try {
      messages = steps.map(({ step, branch }) => renderStep(step, branch, values, budget));
    } catch (error) {
      if (!(error instanceof RenderedTooLong)) throw error;
      throw validationError(
        [{ field: 'body', message: `renders to more than ${limitText} characters`, type: 'max_length' }],
        `Request validation failed: this preview renders to more than ${limitText} characters. Preview one step (step_id), or shorten the values its placeholders take or the steps' text.`,
      );
    }
    return {
      status: 200,
      body: {
        success: true,
        campaign_id: campaign.id,
        lead_id: body.lead_id ?? null,
        variation,
        messages,
      },
    };
  },
};

/**
 * The lead to render for: the stored lead's fields with the inline ones over them. Inline
 * `custom_fields` are merged key by key, so sample data can add one custom field to a real lead.
 */
function mergeLead(stored: Record<string, unknown>, inline: Record<string, unknown>): Record<string, unknown> {
  const lead: Record<string, unknown> = { custom_fields: {} };
  for (const name of leadFieldNames) lead[name] = name in inline ? inline[name] : stored[name];
  lead.custom_fields = {
    ...(isPlainObject(stored.custom_fields) ? stored.custom_fields : {}),
    ...(isPlainObject(inline.custom_fields) ? inline.custom_fields : {}),
  };
  return lead;
}

const limitText = groupedDigits(maxRenderedLength);

function renderStep(
  step: SequenceStep,
  branch: string | null,
  values: PlaceholderValues,
  budget: RenderBudget,
): PreviewMessage {
  // Only the text a step type sends: view_profile and conditional steps have none.
  const { texts, missing } = renderStepTexts(step, values, budget);
  return {
    step_id: step.id,
    type: step.type,
    channel: stepChannel(step.type),
    branch,
    ...texts,
    missing_variables: missing,
  };
}
