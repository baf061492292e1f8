/**
 * Tag AI fields: list, create and update a campaign's AI fields (per-lead variables a model
 * writes, used in step text as `{field_name}`).
 */
import { ApiError, validationError } from '../http/api-error.ts';
import type { AiFieldRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { aiFieldView } from '../views/ai-field.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';
import { newId } from '../domain/ids.ts';

type AiFieldPatch = Parameters<Store['aiFields']['update']>[2];

/** The fields an AI field record holds in columns; any other key of a body goes to `extra`. */
const writableFields = [
  'field_name',
  'ai_instructions',
  'data_sources',
  'fallback_value',
  'field_description',
  'is_active',
] as const;
/** Set by the service; a body that sends them as extra properties does not change them. */
const readOnlyFields = ['id', 'created_at', 'updated_at'];

export const aiFieldHandlers: PartialHandlers = {
  async listAiFields({ path, auth }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const fields = await store.aiFields.list(campaign.id);
    return { status: 200, body: { success: true, campaign_id: campaign.id, ai_fields: fields.map(aiFieldView) } };
  },

  async createAiField({ path, body, auth, now }, { store }) {
    const at = now.toISOString();
    return store.transaction(async (tx) => {
      // The campaign lock makes creates and renames take turns, so two cannot take one name.
      const campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      await assertNameFree(tx, campaign.id, body.field_name, null);
      const record: AiFieldRecord = {
        id: newId(),
        organization_id: auth.organization.id,
        campaign_id: campaign.id,
        field_name: body.field_name,
        ai_instructions: body.ai_instructions,
        data_sources: body.data_sources ?? null,
        fallback_value: body.fallback_value ?? null,
        field_description: body.field_description ?? null,
        // The document's default; the validator does not fill defaults in.
        is_active: body.is_active ?? true,
        extra: extraOf(body),
        created_at: at,
        updated_at: at,
      };
      await tx.aiFields.insert(record);
      return { status: 201, body: { success: true, message: 'AI field created', ai_field: aiFieldView(record) } };
    });
  },

  async updateAiField({ path, body, auth, now }, { store }) {
    return store.transaction(async (tx) => {
      const campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      const field = await tx.aiFields.get(campaign.id, path.field_id);
      if (!field) {
        throw new ApiError(404, 'NOT_FOUND', `AI field ${path.field_id} not found in campaign ${campaign.id}.`);
      }
      if (body.field_name !== undefined && body.field_name !== field.field_name) {
        await assertNameFree(tx, campaign.id, body.field_name, field.id);
      }
      const patch: AiFieldPatch = { extra: { ...field.extra, ...extraOf(body) }, updated_at: now.toISOString() };
      if (body.field_name !== undefined) patch.field_name = body.field_name;
      if (body.ai_instructions !== undefined) patch.ai_instructions = body.ai_instructions;
      if (body.data_sources !== undefined) patch.data_sources = body.data_sources;
      if (body.fallback_value !== undefined) patch.fallback_value = body.fallback_value;
      if (body.field_description !== undefined) patch.field_description = body.field_description;
      if (body.is_active !== undefined) patch.is_active = body.is_active;
      const updated = await tx.aiFields.update(campaign.id, field.id, patch);
      if (!updated) throw new Error(`AI field ${field.id} vanished while its campaign was locked`);
      return { status: 200, body: { success: true, message: 'AI field updated', ai_field: aiFieldView(updated) } };
    });
  },
};

/** `400 VALIDATION_ERROR` (type `duplicate`) when another AI field of the campaign has the name. */
async function assertNameFree(store: Store, campaignId: string, name: string, exceptId: string | null) {
  const fields = await store.aiFields.list(campaignId);
  if (fields.some((f) => f.field_name === name && f.id !== exceptId)) {
    throw validationError([
      {
        field: 'body.field_name',
        message: `'${name}' is already used by an AI field of this campaign`,
        type: 'duplicate',
      },
    ]);
  }
}

/** The body's additional properties, stored and returned as given. */
function extraOf(body: Record<string, unknown>): Record<string, unknown> {
  const known = new Set<string>([...writableFields, ...readOnlyFields]);
  return Object.fromEntries(Object.entries(body).filter(([key]) => !known.has(key)));
}
