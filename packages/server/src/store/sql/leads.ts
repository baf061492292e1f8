/** SQL implementations of the lead, enrolment and sender account stores. */
import { erasedLeadFields } from '../memory/leads.ts';
import type { ConnectLinkRecord, EnrolmentRecord, LeadRecord, SenderAccountRecord } from '../records.ts';
import type { EnrolmentStore, LeadStore, SenderAccountStore } from '../types.ts';
import type { SqlClient } from './client.ts';
import { reportingUniqueViolations } from './errors.ts';
import { insertRow, selectPage, updateRow } from './rows.ts';

const leadJson = new Set(['custom_fields']);

export function sqlLeads(client: SqlClient): LeadStore {
  return {
    async insert(record) {
      await reportingUniqueViolations(() => insertRow(client, 'leads', record, leadJson));
    },
    async get(organizationId, id) {
      const [row] = await client.query<LeadRecord>(
        'select * from leads where organization_id = $1 and id = $2 and deleted_at is null',
        [organizationId, id],
      );
      return row ?? null;
    },
    async getMany(organizationId, ids) {
      if (ids.length === 0) return [];
      return client.query<LeadRecord>(
        'select * from leads where organization_id = $1 and id = any($2::uuid[]) and deleted_at is null',
        [organizationId, ids],
      );
    },
    async findByEmail(organizationId, email) {
      const [row] = await client.query<LeadRecord>(
        `select * from leads where organization_id = $1 and lower(email) = lower($2) and deleted_at is null
          order by created_at, id limit 1`,
        [organizationId, email],
      );
      return row ?? null;
    },
    async list(organizationId, filter) {
      const params: unknown[] = [organizationId];
      let where = 'organization_id = $1 and deleted_at is null';
      if (filter.campaign_id !== undefined) {
        params.push(filter.campaign_id);
        where += ` and id in (select lead_id from enrolments where campaign_id = $${params.length} and removed_at is null)`;
      }
      if (filter.email !== undefined) {
        params.push(filter.email);
        where += ` and lower(email) = lower($${params.length})`;
      }
      return selectPage<LeadRecord>(client, 'leads', where, params, 'created_at desc, id desc', filter);
    },
    async update(organizationId, id, patch) {
      const [live] = await client.query(
        'select 1 from leads where organization_id = $1 and id = $2 and deleted_at is null',
        [organizationId, id],
      );
      if (!live) return null;
      return reportingUniqueViolations(() =>
        updateRow<LeadRecord>(client, 'leads', { organization_id: organizationId, id }, patch, leadJson),
      );
    },
    async erase(organizationId, id, at) {
      const [erased] = await client.query(
        `update leads set email = null, first_name = null, last_name = null, company = null, title = null,
                industry = null, website = null, linkedin_profile = null, annual_revenue = null,
                employee_count = null, custom_fields = $3::jsonb, deleted_at = $4, updated_at = $4
          where organization_id = $1 and id = $2 and deleted_at is null
          returning 1`,
        [organizationId, id, JSON.stringify(erasedLeadFields.custom_fields), at],
      );
      return Boolean(erased);
    },
    async getRow(organizationId, id) {
      const [row] = await client.query<LeadRecord>('select * from leads where organization_id = $1 and id = $2', [
        organizationId,
        id,
      ]);
      return row ?? null;
    },
  };
}

export function sqlEnrolments(client: SqlClient): EnrolmentStore {
  return {
    async insert(record) {
      await reportingUniqueViolations(() => insertRow(client, 'enrolments', record));
    },
    async find(campaignId, leadId, options) {
      const [row] = await client.query<EnrolmentRecord>(
        `select * from enrolments where campaign_id = $1 and lead_id = $2 and removed_at is null${options?.forUpdate ? ' for update' : ''}`,
        [campaignId, leadId],
      );
      return row ?? null;
    },
    async listForLead(leadId, options) {
      if (options?.forUpdate) {
        // Locks are taken in ID order, then the rows put in the usual order.
        const locked = await client.query<EnrolmentRecord>(
          'select * from enrolments where lead_id = $1 and removed_at is null order by id for update',
          [leadId],
        );
        return locked.sort(
          (a, b) => Date.parse(a.enrolled_at) - Date.parse(b.enrolled_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        );
      }
      return client.query<EnrolmentRecord>(
        'select * from enrolments where lead_id = $1 and removed_at is null order by enrolled_at, id',
        [leadId],
      );
    },
    async listForLeads(leadIds) {
      if (leadIds.length === 0) return [];
      return client.query<EnrolmentRecord>(
        'select * from enrolments where lead_id = any($1::uuid[]) and removed_at is null order by enrolled_at, id',
        [leadIds],
      );
    },
    async countForCampaign(campaignId) {
      const [row] = await client.query<{ count: number }>(
        `select count(*) as count from enrolments e join leads l on l.id = e.lead_id
          where e.campaign_id = $1 and e.removed_at is null and l.deleted_at is null`,
        [campaignId],
      );
      return Number(row?.count ?? 0);
    },
    async listLeadsForCampaign(campaignId) {
      return client.query<LeadRecord>(
        `select l.* from enrolments e join leads l on l.id = e.lead_id
          where e.campaign_id = $1 and e.removed_at is null and l.deleted_at is null
          order by e.enrolled_at, e.id`,
        [campaignId],
      );
    },
    async update(id, patch) {
      await updateRow(client, 'enrolments', { id }, patch);
    },
  };
}

const accountJson = new Set(['email_auth']);

export function sqlAccounts(client: SqlClient): SenderAccountStore {
  return {
    async insert(record) {
      await insertRow(client, 'sender_accounts', record, accountJson);
    },
    async get(organizationId, id) {
      const [row] = await client.query<SenderAccountRecord>(
        'select * from sender_accounts where organization_id = $1 and id = $2',
        [organizationId, id],
      );
      return row ?? null;
    },
    async getMany(organizationId, ids, options) {
      if (ids.length === 0) return [];
      // Locks are taken in one order (ID, code points) so that two lockers cannot deadlock.
      const lock = options?.forUpdate ? ' order by id collate "C" for update' : '';
      const rows = await client.query<SenderAccountRecord>(
        `select * from sender_accounts where organization_id = $1 and id = any($2::text[])${lock}`,
        [organizationId, ids],
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async list(organizationId, filter) {
      const params: unknown[] = [organizationId];
      let where = 'organization_id = $1';
      for (const column of ['platform', 'status'] as const) {
        if (filter[column] === undefined) continue;
        params.push(filter[column]);
        where += ` and ${column} = $${params.length}`;
      }
      return selectPage<SenderAccountRecord>(
        client,
        'sender_accounts',
        where,
        params,
        'connected_at asc nulls last, id collate "C"',
        filter,
      );
    },
    async update(organizationId, id, patch) {
      return updateRow<SenderAccountRecord>(
        client,
        'sender_accounts',
        { organization_id: organizationId, id },
        patch,
        accountJson,
      );
    },
    async listCampaignUses(organizationId, accountIds) {
      if (accountIds.length === 0) return [];
      // `?` tests whether the JSON array holds the string (top-level elements only).
      return client.query<{ account_id: string; campaign_id: string }>(
        `select a.id as account_id, c.id as campaign_id
           from unnest($2::text[]) as a (id)
           join campaigns c on c.organization_id = $1 and c.enabled_accounts ? a.id
          order by a.id collate "C", c.created_at, c.id`,
        [organizationId, [...new Set(accountIds)]],
      );
    },
    async insertConnectLink(record) {
      await reportingUniqueViolations(() => insertRow(client, 'connect_links', record));
    },
    async getConnectLink(token) {
      const [row] = await client.query<ConnectLinkRecord>('select * from connect_links where token = $1', [token]);
      return row ?? null;
    },
  };
}
