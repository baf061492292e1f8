/** Memory implementation of the sandbox channel's recorded messages. */
import type { SandboxMessageRecord } from '../records.ts';
import type { SandboxMessageStore } from '../types.ts';
import { takeWithinBytes, utf8Length } from '../page-bytes.ts';
import type { MemoryState } from './state.ts';
import { compareText, patchRow } from './table.ts';

/** A message's text in UTF-8 bytes, its subject and body, as the SQL stores count it. */
const messageTextBytes = (m: SandboxMessageRecord) => utf8Length(m.subject ?? '') + utf8Length(m.body);

const oldestSentFirst = (a: SandboxMessageRecord, b: SandboxMessageRecord) =>
  Date.parse(a.sent_at) - Date.parse(b.sent_at) || compareText(a.id, b.id);

export function memoryMessages(state: MemoryState): SandboxMessageStore {
  return {
    async insert(record) {
      state.messages.set(record.id, record);
    },
    async listForCampaign(campaignId, filter) {
      const { items, total } = state.messages.page(
        (m) => m.campaign_id === campaignId && (filter.lead_id === undefined || m.lead_id === filter.lead_id),
        oldestSentFirst,
        filter,
      );
      return { items: takeWithinBytes(items, messageTextBytes, filter.maxTextBytes), total };
    },
    async eraseLead(organizationId, leadId) {
      const own = state.messages.where((m) => m.organization_id === organizationId && m.lead_id === leadId);
      for (const message of own) patchRow(state.messages, message.id, { subject: null, body: '' });
    },
  };
}
