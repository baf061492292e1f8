/** Memory implementations of the campaign, AI field, responder and webhook stores. */
import { UniqueViolation, uniqueConstraints } from '../errors.ts';
import type { WebhookRecord } from '../records.ts';
import {
  type AiFieldStore,
  type CampaignStore,
  movesDueTimes,
  type ResponderStore,
  type WebhookStore,
} from '../types.ts';
import { markCampaignDue } from './leads.ts';
import type { MemoryState } from './state.ts';
import { compareText, newestFirst, oldestFirst, paginate, patchRow, stripUndefined } from './table.ts';

export function memoryCampaigns(state: MemoryState): CampaignStore {
  const owned = (organizationId: string, id: string) => {
    const campaign = state.campaigns.get(id);
    return campaign && campaign.organization_id === organizationId ? campaign : null;
  };
  return {
    async insert(record) {
      state.campaigns.set(record.id, record);
    },
    async get(organizationId, id) {
      return owned(organizationId, id);
    },
    async list(organizationId, filter) {
      return state.campaigns.page(
        (c) =>
          c.organization_id === organizationId && (filter.is_active === undefined || c.is_active === filter.is_active),
        newestFirst,
        filter,
      );
    },
    async update(organizationId, id, patch) {
      if (!owned(organizationId, id)) return null;
      const saved = patchRow(state.campaigns, id, patch);
      if (saved && movesDueTimes(patch)) markCampaignDue(state, id);
      return saved;
    },
    async replaceSequence(organizationId, id, sequence, expectedVersion, updatedAt) {
      const campaign = owned(organizationId, id);
      if (!campaign) return { outcome: 'not_found' };
      if (campaign.sequence_version !== expectedVersion) return { outcome: 'modified' };
      const saved = patchRow(state.campaigns, id, {
        sequence,
        sequence_version: expectedVersion + 1,
        updated_at: updatedAt,
      });
      if (saved) markCampaignDue(state, id);
      return saved ? { outcome: 'saved', campaign: saved } : { outcome: 'not_found' };
    },
    async listAllActive() {
      return state.campaigns.where((c) => c.is_active).sort(oldestFirst);
    },
    async findActiveUsingAccounts(organizationId, accountIds, exceptCampaignId) {
      const wanted = new Set(accountIds);
      const conflicts: Array<{ account_id: string; campaign_id: string; campaign_name: string }> = [];
      const campaigns = state.campaigns
        .where((c) => c.organization_id === organizationId && c.is_active && c.id !== exceptCampaignId)
        .sort(oldestFirst);
      for (const campaign of campaigns) {
        for (const accountId of campaign.enabled_accounts) {
          if (wanted.has(accountId)) {
            conflicts.push({ account_id: accountId, campaign_id: campaign.id, campaign_name: campaign.name });
          }
        }
      }
      return conflicts.sort((a, b) => compareText(a.account_id, b.account_id));
    },
  };
}

export function memoryAiFields(state: MemoryState): AiFieldStore {
  return {
    async insert(record) {
      state.aiFields.set(record.id, record);
    },
    async get(campaignId, id) {
      const field = state.aiFields.get(id);
      return field && field.campaign_id === campaignId ? field : null;
    },
    async list(campaignId) {
      return state.aiFields.where((f) => f.campaign_id === campaignId).sort(oldestFirst);
    },
    async update(campaignId, id, patch) {
      const field = state.aiFields.get(id);
      return field && field.campaign_id === campaignId ? patchRow(state.aiFields, id, patch) : null;
    },
  };
}

export function memoryResponders(state: MemoryState): ResponderStore {
  return {
    async get(campaignId) {
      return state.responders.get(campaignId) ?? null;
    },
    async upsert(record) {
      state.responders.set(record.campaign_id, record);
    },
  };
}

export function memoryWebhooks(state: MemoryState): WebhookStore {
  const ofCampaign = (campaignId: string) => state.webhooks.where((w) => w.campaign_id === campaignId);
  // The SQL constraints: `unique (campaign_id, url)` and the partial unique index
  // `webhooks_one_enabled` (one enabled webhook per campaign).
  const assertUnique = (row: WebhookRecord) => {
    const others = ofCampaign(row.campaign_id).filter((w) => w.id !== row.id);
    if (others.some((w) => w.url === row.url)) throw new UniqueViolation(uniqueConstraints.webhookUrl);
    if (row.enabled && others.some((w) => w.enabled)) throw new UniqueViolation(uniqueConstraints.webhookSlot);
  };
  return {
    async insert(record) {
      assertUnique(record);
      state.webhooks.set(record.id, record);
    },
    async get(campaignId, id) {
      const webhook = state.webhooks.get(id);
      return webhook && webhook.campaign_id === campaignId ? webhook : null;
    },
    async findByUrl(campaignId, url) {
      return ofCampaign(campaignId).find((w) => w.url === url) ?? null;
    },
    async listEnabled(campaignId) {
      return ofCampaign(campaignId)
        .filter((w) => w.enabled)
        .sort(oldestFirst);
    },
    async list(campaignId, page) {
      return paginate(ofCampaign(campaignId).sort(oldestFirst), page);
    },
    async update(campaignId, id, patch) {
      const webhook = state.webhooks.get(id);
      if (!webhook || webhook.campaign_id !== campaignId) return null;
      assertUnique({ ...webhook, ...stripUndefined(patch) });
      return patchRow(state.webhooks, id, patch);
    },
  };
}
