/** SQL implementations of the campaign, AI field, responder and webhook stores. */
import type { AiFieldRecord, CampaignRecord, ResponderSettingsRecord, WebhookRecord } from '../records.ts';
import type { AiFieldStore, CampaignStore, ResponderStore, WebhookStore } from '../types.ts';
import type { SqlClient } from './client.ts';
import { reportingUniqueViolations } from './errors.ts';
import { readsById } from './reads-by-id.ts';
import { dueNotKnown, markCampaignDue } from './leads.ts';
import { insertRow, listPage, updateRow } from './rows.ts';
import { movesDueTimes } from '../types.ts';

const campaignJson = new Set([
  'custom_fields',
  'enabled_accounts',
  'lead_database_filters',
  'refill_policy',
  'sequence',
]);

/** `shared`: `client` is the store's own, outside any transaction (see reads-by-id.ts). */
export function sqlCampaigns(client: SqlClient, shared = false): CampaignStore {
  const readShared = shared ? readsById<CampaignRecord>(client, { table: 'campaigns' }) : undefined;
  return {
    async insert(record) {
      await insertRow(client, 'campaigns', record, campaignJson);
    },
    async get(organizationId, id, options) {
      if (readShared && !options?.forUpdate) return readShared(organizationId, id);
      const [row] = await client.query<CampaignRecord>(
        `select * from campaigns where organization_id = $1 and id = $2${options?.forUpdate ? ' for no key update' : ''}`,
        [organizationId, id],
      );
      return row ?? null;
    },
    async list(organizationId, filter) {
      const params: unknown[] = [organizationId];
      let where = 'organization_id = $1';
      if (filter.is_active !== undefined) {
        params.push(filter.is_active);
        where += ` and is_active = $${params.length}`;
      }
      return listPage<CampaignRecord>(
        client,
        { from: 'campaigns', where, params, orderBy: 'created_at desc, id desc' },
        filter,
      );
    },
    async update(organizationId, id, patch) {
      const save = (on: SqlClient) =>
        updateRow<CampaignRecord>(on, 'campaigns', { organization_id: organizationId, id }, patch, campaignJson);
      if (!movesDueTimes(patch)) return save(client);
      // With the schedule's bounds, all or nothing (a savepoint inside a caller's transaction).
      return client.transaction(async (tx) => {
        const saved = await save(tx);
        if (saved) await markCampaignDue(tx, id);
        return saved;
      });
    },
    async replaceSequence(organizationId, id, sequence, expectedVersion, updatedAt) {
      // One statement: the new sequence and its leads' bounds made not known (they may now be
      // due earlier: EnrolmentStore.markCampaignDue) commit together.
      const [saved] = await client.query<CampaignRecord>(
        `with saved as (
           update campaigns set sequence = $3::jsonb, sequence_version = sequence_version + 1, updated_at = $5
            where organization_id = $1 and id = $2 and sequence_version = $4
            returning *
         ), marked as (
           update enrolments set ${dueNotKnown}
            where campaign_id = (select id from saved) and removed_at is null
         )
         select * from saved`,
        [organizationId, id, JSON.stringify(sequence), expectedVersion, updatedAt],
      );
      if (saved) return { outcome: 'saved', campaign: saved };
      const [exists] = await client.query('select 1 from campaigns where organization_id = $1 and id = $2', [
        organizationId,
        id,
      ]);
      return { outcome: exists ? 'modified' : 'not_found' };
    },
    async listAllActive() {
      return client.query<CampaignRecord>('select * from campaigns where is_active order by created_at, id');
    },
    async findActiveUsingAccounts(organizationId, accountIds, exceptCampaignId) {
      if (accountIds.length === 0) return [];
      return client.query<{ account_id: string; campaign_id: string; campaign_name: string }>(
        `select account.value as account_id, c.id as campaign_id, c.name as campaign_name
           from campaigns c, jsonb_array_elements_text(c.enabled_accounts) as account(value)
          where c.organization_id = $1 and c.is_active and c.id <> $3 and account.value = any($2::text[])
          order by account.value collate "C", c.created_at, c.id`,
        [organizationId, accountIds, exceptCampaignId],
      );
    },
  };
}

const aiFieldJson = new Set(['data_sources', 'extra']);

export function sqlAiFields(client: SqlClient): AiFieldStore {
  return {
    async insert(record) {
      await insertRow(client, 'ai_fields', record, aiFieldJson);
    },
    async get(campaignId, id) {
      const [row] = await client.query<AiFieldRecord>('select * from ai_fields where campaign_id = $1 and id = $2', [
        campaignId,
        id,
      ]);
      return row ?? null;
    },
    async list(campaignId) {
      return client.query<AiFieldRecord>('select * from ai_fields where campaign_id = $1 order by created_at, id', [
        campaignId,
      ]);
    },
    async update(campaignId, id, patch) {
      return updateRow<AiFieldRecord>(client, 'ai_fields', { campaign_id: campaignId, id }, patch, aiFieldJson);
    },
  };
}

export function sqlResponders(client: SqlClient): ResponderStore {
  return {
    async get(campaignId) {
      const [row] = await client.query<ResponderSettingsRecord>(
        'select * from responder_settings where campaign_id = $1',
        [campaignId],
      );
      return row ?? null;
    },
    async upsert(record) {
      await client.query(
        `insert into responder_settings
              (campaign_id, organization_id, mode, goal, booking_url, instructions, escalate_negative,
               handle_out_of_office, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (campaign_id) do update
            set mode = excluded.mode, goal = excluded.goal, booking_url = excluded.booking_url,
                instructions = excluded.instructions, escalate_negative = excluded.escalate_negative,
                handle_out_of_office = excluded.handle_out_of_office, updated_at = excluded.updated_at`,
        [
          record.campaign_id,
          record.organization_id,
          record.mode,
          record.goal,
          record.booking_url,
          record.instructions,
          record.escalate_negative,
          record.handle_out_of_office,
          record.updated_at,
        ],
      );
    },
  };
}

export function sqlWebhooks(client: SqlClient): WebhookStore {
  return {
    async insert(record) {
      await reportingUniqueViolations(() => insertRow(client, 'webhooks', record));
    },
    async get(campaignId, id) {
      const [row] = await client.query<WebhookRecord>('select * from webhooks where campaign_id = $1 and id = $2', [
        campaignId,
        id,
      ]);
      return row ?? null;
    },
    async findByUrl(campaignId, url) {
      const [row] = await client.query<WebhookRecord>('select * from webhooks where campaign_id = $1 and url = $2', [
        campaignId,
        url,
      ]);
      return row ?? null;
    },
    async listEnabled(campaignId) {
      return client.query<WebhookRecord>(
        'select * from webhooks where campaign_id = $1 and enabled order by created_at, id',
        [campaignId],
      );
    },
    async list(campaignId, page) {
      return listPage<WebhookRecord>(
        client,
        { from: 'webhooks', where: 'campaign_id = $1', params: [campaignId], orderBy: 'created_at, id' },
        page,
      );
    },
    async update(campaignId, id, patch) {
      return reportingUniqueViolations(() =>
        updateRow<WebhookRecord>(client, 'webhooks', { campaign_id: campaignId, id }, patch),
      );
    },
  };
}
