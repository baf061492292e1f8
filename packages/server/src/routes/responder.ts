/** Tag Responder: `GET` and `PATCH /campaigns/{campaign_id}/responder` (the reply agent's settings). */
import { toApiTime } from '../domain/clock.ts';
import { applyResponderChange, defaultResponderSettings, responderAgentVersion } from '../domain/responder.ts';
import type { Schemas } from '../openapi/types.ts';
import type { CampaignRecord, ResponderSettingsRecord } from '../store/records.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

export const responderHandlers: PartialHandlers = {
  async getResponderSettings({ path, auth }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const stored = await store.responders.get(campaign.id);
    const settings = stored ?? defaultResponderSettings(campaign.id, campaign.organization_id);
    return { status: 200, body: { success: true, settings: settingsView(campaign, settings) } };
  },

  async updateResponderSettings({ path, body, auth, now }, { store }) {
    const at = now.toISOString();
    // The settings and the campaign's responder_enabled change together or not at all.
    return store.transaction(async (tx) => {
      let campaign = await findCampaign(tx, auth.organization.id, path.campaign_id, { forUpdate: true });
      const current =
        (await tx.responders.get(campaign.id)) ?? defaultResponderSettings(campaign.id, campaign.organization_id);
      const { enabled, ...change } = body;
      const settings = applyResponderChange(current, change, at);
      await tx.responders.upsert(settings);
      if (enabled !== undefined && enabled !== campaign.responder_enabled) {
        const updated = await tx.campaigns.update(auth.organization.id, campaign.id, {
          responder_enabled: enabled,
          updated_at: at,
        });
        if (!updated) throw new Error(`campaign ${campaign.id} vanished while locked`);
        campaign = updated;
      }
      return {
        status: 200,
        body: { success: true, message: 'Responder settings updated', settings: settingsView(campaign, settings) },
      };
    });
  },
};

function settingsView(campaign: CampaignRecord, settings: ResponderSettingsRecord): Schemas['ResponderSettings'] {
  return {
    campaign_id: campaign.id,
    enabled: campaign.responder_enabled,
    agent_version: responderAgentVersion,
    mode: settings.mode,
    goal: settings.goal,
    booking_url: settings.booking_url,
    instructions: settings.instructions,
    escalate_negative: settings.escalate_negative,
    handle_out_of_office: settings.handle_out_of_office,
    updated_at: toApiTime(settings.updated_at),
  };
}
