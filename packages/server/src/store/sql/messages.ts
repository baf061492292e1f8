/** SQL implementation of the sandbox channel's recorded messages. */
import type { SandboxMessageStore } from '../types.ts';
import type { SqlClient } from './client.ts';
import { insertRow, listPage } from './rows.ts';
import type { SandboxMessageRecord } from '../records.ts';

/** A message's text in bytes, its subject and body, read from the values' headers. */
const messageTextBytes = 'coalesce(octet_length(subject), 0) + octet_length(body)';

export function sqlMessages(client: SqlClient): SandboxMessageStore {
  return {
    async insert(record) {
      await insertRow(client, 'sandbox_messages', record);
    },
    async listForCampaign(campaignId, filter) {
      const params: unknown[] = [campaignId];
      let where = 'campaign_id = $1';
      if (filter.lead_id !== undefined) {
        params.push(filter.lead_id);
        where += ` and lead_id = $${params.length}`;
      }
      return listPage<SandboxMessageRecord>(
        client,
        { from: 'sandbox_messages', where, params, orderBy: 'sent_at, id', textBytes: messageTextBytes },
        filter,
      );
    },
    async eraseLead(organizationId, leadId) {
      await client.query(
        `update sandbox_messages set subject = null, body = '' where organization_id = $1 and lead_id = $2`,
        [organizationId, leadId],
      );
    },
  };
}
