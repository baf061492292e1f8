/** SQL implementations of the lead, enrolment and sender account stores. */
import { erasedLeadFields } from '../memory/leads.ts';
import type { ConnectLinkRecord, EnrolmentRecord, LeadRecord, SenderAccountRecord } from '../records.ts';
import type { BoundedEnrolment, DueEnrolment, EnrolmentStore, LeadStore, SenderAccountStore } from '../types.ts';
import type { SqlClient } from './client.ts';
import { reportingUniqueViolations } from './errors.ts';
import { insertRow, listPage, pageWithTotal, updateRow } from './rows.ts';
import { planEachRun } from './statement-names.ts';
import { arrayLiteral } from './array-literal.ts';
import { coalescing } from './coalesce.ts';
import { readsById } from './reads-by-id.ts';

const leadJson = new Set(['custom_fields']);

/**
 * The lead's columns and their types, for the batch insert: one array parameter per column,
 * unnested into rows, so that a batch is one statement of 16 parameters whatever its size
 * (a `values` list would need 16 per lead and stops at 65,535 parameters).
 */
const leadColumnTypes = {
  id: 'uuid',
  organization_id: 'uuid',
  email: 'text',
  first_name: 'text',
  last_name: 'text',
  company: 'text',
  title: 'text',
  industry: 'text',
  website: 'text',
  linkedin_profile: 'text',
  annual_revenue: 'bigint',
  employee_count: 'integer',
  custom_fields: 'text',
  deleted_at: 'timestamptz',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
} as const satisfies Record<keyof LeadRecord, string>;
const leadColumnList = Object.keys(leadColumnTypes) as (keyof LeadRecord)[];

/**
 * The columns of an enrolment record: `enrolments` also holds its lead's sort key and deletion
 * (`lead_created_at`, `lead_deleted`, migration 010), which stay in the store.
 */
const enrolmentColumnList = [
  'id',
  'organization_id',
  'campaign_id',
  'lead_id',
  'status',
  'variation',
  'enrolled_at',
  'removed_at',
] as const satisfies readonly (keyof EnrolmentRecord)[];
const enrolmentColumns = enrolmentColumnList.join(', ');
/** The record's columns qualified by a table alias (`e.id, e.organization_id, ...`). */
export const enrolmentColumnsOf = (alias: string) => enrolmentColumnList.map((c) => `${alias}.${c}`).join(', ');
const enrolmentColumnTypes: Record<(typeof enrolmentColumnList)[number], string> = {
  id: 'uuid',
  organization_id: 'uuid',
  campaign_id: 'uuid',
  lead_id: 'uuid',
  status: 'text',
  variation: 'text',
  enrolled_at: 'timestamptz',
  removed_at: 'timestamptz',
};

/** Concurrent `insertMissing` statements; the calls that arrive meanwhile wait and go together. */
const insertsInFlight = 2;
/** Calls of up to this many records coalesce; larger ones (imports) run alone. */
const coalescedUpTo = 100;

/**
 * `insertMissing` for several calls in one statement: each email (per organization, compared
 * case-insensitively) goes in once, and a later record of the same email answers the lead
 * of the first, not inserted, as if it had come after it. Records go in email order, so two
 * statements sharing emails take the unique index's locks in one order.
 */
async function insertMissingMerged(client: SqlClient, calls: LeadRecord[][]) {
  const firstOf = new Map<string, SentLead>();
  const sent: SentLead[] = [];
  const sentFor = calls.map((records) =>
    records.map((record) => {
      // The organization, then the email as `leads_email` compares it.
      const key = record.email === null ? '' : `${record.organization_id} ${record.email.toLowerCase()}`;
      const earlier = key === '' ? undefined : firstOf.get(key);
      if (earlier) return earlier;
      const entry: SentLead = { record, key, outcome: undefined };
      if (key !== '') firstOf.set(key, entry);
      sent.push(entry);
      return entry;
    }),
  );
  sent.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await insertMissingRows(client, sent);
  return calls.map((records, c) =>
    records.map((record, i) => {
      const entry = (sentFor[c] as SentLead[])[i] as SentLead;
      const outcome = entry.outcome as { lead: LeadRecord; inserted: boolean };
      // A record folded into an earlier one of its email found that lead.
      return entry.record === record ? outcome : { lead: outcome.lead, inserted: false };
    }),
  );
}

/** A record sent in the statement, its key (empty without email), and what became of it. */
interface SentLead {
  record: LeadRecord;
  key: string;
  outcome: { lead: LeadRecord; inserted: boolean } | undefined;
}

/**
 * The statement: one array parameter per column (`leadColumnTypes`), `leads_email` as the
 * arbiter. A taken email updates nothing but answers the existing row (`xmax <> 0`: a row
 * this statement did not insert), locked until the commit as a read `for update` would be,
 * so an erasure waits for the import.
 *
 * A row it inserted is the record sent, so only its `id` and `custom_fields` come back (jsonb
 * orders an object's keys its own way, and answers show the stored order); the other columns
 * come back for existing leads only. Reading every column of 5,000 new rows back (their
 * timestamps parsed) was a tenth of an import's time in the server.
 */
const insertMissingSql = (() => {
  const columns = leadColumnList;
  const returned = columns.map((column) =>
    column === 'id' || column === 'custom_fields'
      ? `l.${column}`
      : `case when l.xmax <> 0 then l.${column} end as ${column}`,
  );
  // `leads_email` arbitrates (no plan to choose: a lookup of the emails first was planned,
  // on a table never analyzed, as a walk of `leads_newest` per email, 46 s for 5,000 at
  // 15,000 leads: decision 0012).
  return `insert into leads as l (${columns.join(', ')})
   select ${columns.map((column) => (leadJson.has(column) ? `${column}::jsonb` : column)).join(', ')}
     from unnest(${columns.map((column, i) => `$${i + 1}::${leadColumnTypes[column]}[]`).join(', ')})
          as u(${columns.join(', ')})
   on conflict (organization_id, lower(email)) where deleted_at is null and email is not null
   do update set updated_at = l.updated_at
   returning (l.xmax = 0) as inserted, ${returned.join(', ')}`;
})();

async function insertMissingRows(client: SqlClient, sent: SentLead[]): Promise<void> {
  const rows = await client.query<LeadRecord & { inserted: boolean }>(
    insertMissingSql,
    leadColumnList.map((column) => {
      const values = sent.map(({ record }) =>
        leadJson.has(column) ? JSON.stringify(record[column]) : (record[column] as string | number | null),
      );
      // `pg` sends arrays in their text form; PGlite takes the arrays themselves.
      return client.kind === 'postgres' ? arrayLiteral(values) : values;
    }),
  );
  const inserted = new Map<string, Record<string, unknown>>();
  const existing = new Map<string, LeadRecord>();
  for (const row of rows) {
    if (row.inserted) {
      inserted.set(row.id, row.custom_fields);
      continue;
    }
    const lead: Partial<typeof row> = { ...row };
    delete lead.inserted;
    existing.set(`${row.organization_id} ${row.email?.toLowerCase()}`, lead as LeadRecord);
  }
  for (const entry of sent) {
    const customFields = inserted.get(entry.record.id);
    if (customFields) {
      entry.outcome = { lead: { ...entry.record, custom_fields: customFields }, inserted: true };
      continue;
    }
    const lead = existing.get(entry.key);
    if (!lead) throw new Error(`lead ${entry.record.id}: neither inserted nor found by its email`);
    entry.outcome = { lead, inserted: false };
  }
}

/**
 * A lead's row locks. `update` is PostgreSQL's `no key update`, what an `update` of the row
 * takes: it orders changes and erasures of the lead, and deals (`share`), but not the foreign
 * key checks of rows inserted for the lead (`key share`), which never wait for it.
 */
const locks = { update: 'no key update', share: 'share' } as const;

/** `shared`: `client` is the store's own, outside any transaction (see reads-by-id.ts). */
export function sqlLeads(client: SqlClient, shared = false): LeadStore {
  const readShared = shared
    ? readsById<LeadRecord>(client, { table: 'leads', condition: 'and deleted_at is null' })
    : undefined;
  async function findByEmail(organizationId: string, email: string): Promise<LeadRecord | null> {
    // At most one live lead holds an email (the unique index `leads_email`), so no order:
    // ordering by created_at let PostgreSQL without statistics walk `leads_newest` through
    // every lead of the organization, filtering on the email (decision 0006).
    const [row] = await client.query<LeadRecord>(
      `${planEachRun}select * from leads
        where organization_id = $1 and lower(email) = lower($2) and deleted_at is null and email is not null`,
      [organizationId, email],
    );
    return row ?? null;
  }
  // Calls of a few records (single creates) coalesce into one statement (coalesce.ts);
  // a batch import's thousands run alone. Inside a transaction nothing coalesces: the
  // statement belongs to that transaction alone (a keyed request's, whose stored answer must
  // commit with it: decision 0020), and there is no one else's call to share it with.
  const coalesced = shared
    ? coalescing((calls: LeadRecord[][]) => insertMissingMerged(client, calls), insertsInFlight)
    : undefined;
  const insertMissingCoalesced = (records: LeadRecord[]) =>
    records.length === 0
      ? Promise.resolve([])
      : coalesced && records.length <= coalescedUpTo
        ? coalesced(records)
        : insertMissingMerged(client, [records]).then(([resolved]) => resolved ?? []);
  return {
    async insert(record) {
      await reportingUniqueViolations(() => insertRow(client, 'leads', record, leadJson));
    },
    insertMissing: (records) => insertMissingCoalesced(records),
    async get(organizationId, id, options) {
      if (readShared && !options?.lock) return readShared(organizationId, id);
      const [row] = await client.query<LeadRecord>(
        `select * from leads where organization_id = $1 and id = $2 and deleted_at is null${options?.lock ? ` for ${locks[options.lock]}` : ''}`,
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
    findByEmail,
    async list(organizationId, filter) {
      if (filter.email !== undefined) {
        // One live lead at most: the page is cut from it here.
        const lead = await findByEmail(organizationId, filter.email);
        const enrolled =
          lead !== null &&
          (filter.campaign_id === undefined ||
            (
              await client.query(
                `${planEachRun}select 1 from enrolments where campaign_id = $1 and lead_id = $2 and removed_at is null`,
                [filter.campaign_id, lead.id],
              )
            ).length > 0);
        const items = enrolled ? [lead] : [];
        return { items: items.slice(filter.offset, filter.offset + filter.limit), total: items.length };
      }
      if (filter.campaign_id !== undefined) {
        // One range of `enrolments_campaign_leads` for the total and one walk of it, in the
        // order of the answer, for the page; each lead of the page by primary key (the lateral
        // `offset 0` keeps that a nested loop of key lookups whatever the estimates). The
        // campaign's organization is checked once (a one-time filter), not on every row.
        return pageWithTotal<LeadRecord>(
          client,
          `${planEachRun}select c.total as _total, l.*
             from (select count(*) as total from enrolments
                    where campaign_id = $2 and removed_at is null and not lead_deleted
                      and exists (select 1 from campaigns where id = $2 and organization_id = $1)) c
             left join lateral (
               select lead_id from enrolments
                where campaign_id = $2 and removed_at is null and not lead_deleted
                  and exists (select 1 from campaigns where id = $2 and organization_id = $1)
                order by lead_created_at desc, lead_id desc limit $3 offset $4) p on true
             left join lateral (select * from leads where id = p.lead_id and deleted_at is null offset 0) l on true`,
          [organizationId, filter.campaign_id, filter.limit, filter.offset],
        );
      }
      // One range of `leads_newest` for the total, one walk of it for the page.
      return pageWithTotal<LeadRecord>(
        client,
        `${planEachRun}select c.total as _total, p.*
           from (select count(*) as total from leads where organization_id = $1 and deleted_at is null) c
           left join lateral (
             select * from leads where organization_id = $1 and deleted_at is null
              order by created_at desc, id desc limit $2 offset $3) p on true`,
        [organizationId, filter.limit, filter.offset],
      );
    },
    async update(organizationId, id, patch) {
      // One statement whose condition is the lead being live: an erasure that committed
      // while this waited for the row is seen, and the erased row is left as it is.
      return reportingUniqueViolations(() =>
        updateRow<LeadRecord>(
          client,
          'leads',
          { organization_id: organizationId, id, deleted_at: null },
          patch,
          leadJson,
        ),
      );
    },
    async erase(organizationId, id, at) {
      return client.transaction(async (tx) => {
        const [erased] = await tx.query(
          `update leads set email = null, first_name = null, last_name = null, company = null, title = null,
                  industry = null, website = null, linkedin_profile = null, annual_revenue = null,
                  employee_count = null, custom_fields = $3::jsonb, deleted_at = $4, updated_at = $4
            where organization_id = $1 and id = $2 and deleted_at is null
            returning 1`,
          [organizationId, id, JSON.stringify(erasedLeadFields.custom_fields), at],
        );
        if (!erased) return false;
        // A statement of its own (a snapshot taken after the lead's row lock): an enrolment
        // inserted meanwhile locked the lead `for share`, has committed, and is seen here.
        await tx.query('update enrolments set lead_deleted = true where lead_id = $1 and not lead_deleted', [id]);
        return true;
      });
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
      // The lead's sort key and deletion ride along (`enrolments_campaign_leads`); `for share`
      // orders this insert with an erasure of the lead (see `erase`).
      const columns = enrolmentColumnList;
      const inserted = await reportingUniqueViolations(() =>
        client.query(
          `insert into enrolments (${columns.join(', ')}, lead_created_at, lead_deleted)
           select ${columns.map((column, i) => `$${i + 1}::${enrolmentColumnTypes[column]}`).join(', ')},
                  l.created_at, l.deleted_at is not null
             from (select created_at, deleted_at from leads where id = $4::uuid for share) l
           returning 1`,
          columns.map((column) => record[column]),
        ),
      );
      if (inserted.length === 0) throw new Error(`enrolment ${record.id}: no lead ${record.lead_id}`);
    },
    async insertMany(records) {
      if (records.length === 0) return;
      // As `insert`, for every record in one statement: the leads' sort keys and deletion
      // read `for share` (ordered with an erasure), the rows unnested from one array per column.
      const columns = enrolmentColumnList;
      const [counted] = await reportingUniqueViolations(() =>
        client.query<{ inserted: number }>(
          `${planEachRun}with inserted as (
           insert into enrolments (${columns.join(', ')}, lead_created_at, lead_deleted)
           select ${columns.map((column) => `u.${column}`).join(', ')}, l.created_at, l.deleted_at is not null
             from unnest(${columns.map((column, i) => `$${i + 1}::${enrolmentColumnTypes[column]}[]`).join(', ')})
                  as u(${columns.join(', ')})
             join (select id, created_at, deleted_at from leads
                    where id = any($${columns.length + 1}::uuid[]) for share) l on l.id = u.lead_id
           returning 1)
           select count(*)::int as inserted from inserted`,
          [
            ...columns.map((column) => records.map((record) => record[column])),
            [...new Set(records.map((record) => record.lead_id))],
          ],
        ),
      );
      if (Number(counted?.inserted) !== records.length)
        throw new Error('enrolments: a lead of the batch does not exist');
    },
    async find(campaignId, leadId, options) {
      const [row] = await client.query<EnrolmentRecord>(
        `${planEachRun}select ${enrolmentColumns} from enrolments where campaign_id = $1 and lead_id = $2 and removed_at is null${options?.forUpdate ? ' for update' : ''}`,
        [campaignId, leadId],
      );
      return row ?? null;
    },
    async listForLead(leadId, options) {
      if (options?.forUpdate) {
        // Locks are taken in ID order, then the rows put in the usual order.
        const locked = await client.query<EnrolmentRecord>(
          `select ${enrolmentColumns} from enrolments where lead_id = $1 and removed_at is null order by id for update`,
          [leadId],
        );
        return locked.sort(
          (a, b) => Date.parse(a.enrolled_at) - Date.parse(b.enrolled_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        );
      }
      return client.query<EnrolmentRecord>(
        `select ${enrolmentColumns} from enrolments where lead_id = $1 and removed_at is null order by enrolled_at, id`,
        [leadId],
      );
    },
    async listForLeads(leadIds) {
      if (leadIds.length === 0) return [];
      return client.query<EnrolmentRecord>(
        `select ${enrolmentColumns} from enrolments where lead_id = any($1::uuid[]) and removed_at is null order by enrolled_at, id`,
        [leadIds],
      );
    },
    async countForCampaign(campaignId) {
      const [row] = await client.query<{ count: number }>(
        // One range of `enrolments_campaign_leads` (no join over the campaign's leads).
        `select count(*) as count from enrolments where campaign_id = $1 and removed_at is null and not lead_deleted`,
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
    async update(id, patch, due) {
      if (!due) {
        await updateRow(client, 'enrolments', { id }, patch);
        return;
      }
      const sets = Object.entries(patch).filter(([, value]) => value !== undefined);
      // Both cases read the row as it was: the bound and its mark move together, or neither.
      await client.query(
        `update enrolments set ${sets.map(([column], i) => `${column} = $${i + 4}`).join(', ')}${sets.length > 0 ? ',' : ''}
                due_at = case when due_mark = $3 then $2::timestamptz else due_at end,
                due_mark = case when due_mark = $3 then due_mark + 1 else due_mark end
          where id = $1`,
        [id, due.due_at, due.mark, ...sets.map(([, value]) => value)],
      );
    },
    async listDue(campaignId, at) {
      // Through `enrolments_due`: the rows due by `at`, not the campaign (planned with the
      // values, so that the range on `due_at` is weighed against the campaign's other indexes).
      return client.query<DueEnrolment>(
        `${planEachRun}select ${enrolmentColumnsOf('e')}, l.deleted_at as lead_deleted_at, l.updated_at as lead_updated_at,
                e.due_mark
           from enrolments e join leads l on l.id = e.lead_id
          where e.campaign_id = $1 and e.due_at <= $2
          order by e.enrolled_at, e.id`,
        [campaignId, at],
      );
    },
    async earliestDueAfter(campaignId, at) {
      const [row] = await client.query<{ due_at: string | null }>(
        `${planEachRun}select min(due_at) as due_at from enrolments where campaign_id = $1 and due_at > $2`,
        [campaignId, at],
      );
      return row?.due_at ?? null;
    },
    async *pagesByBound(campaignId, pageSize) {
      if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize ${pageSize}`);
      // One statement read a page at a time: the pages agree with each other (a keyset of a
      // statement per page would see writes committed between them), and a cursor is planned
      // for its first rows (`cursor_tuple_fraction`), so on a table never analyzed too it is an
      // ordered scan of `enrolments_due` (campaign, bound, ID) that stops with the reader.
      await client.query(
        `declare ${boundCursor} no scroll cursor for
         select ${enrolmentColumnsOf('e')}, l.deleted_at as lead_deleted_at, e.due_at
           from enrolments e join leads l on l.id = e.lead_id
          where e.campaign_id = $1 and e.due_at is not null
          order by e.due_at, e.id`,
        [campaignId],
      );
      try {
        for (;;) {
          const page = await client.query<BoundedEnrolment>(`fetch forward ${pageSize} from ${boundCursor}`);
          if (page.length > 0) yield page;
          if (page.length < pageSize) return;
        }
      } finally {
        // After a failed statement the transaction is aborted and its end drops the cursor.
        await client.query(`close ${boundCursor}`).catch(() => undefined);
      }
    },
    async setDue(entries) {
      if (entries.length === 0) return 0;
      const written = await client.query(
        `update enrolments e set due_at = d.due_at, due_mark = e.due_mark + 1
           from unnest($1::uuid[], $2::timestamptz[], $3::int[]) as d (id, due_at, mark)
          where e.id = d.id and e.due_mark = d.mark
          returning 1`,
        [entries.map((entry) => entry.id), entries.map((entry) => entry.due_at), entries.map((entry) => entry.mark)],
      );
      return written.length;
    },
    markCampaignDue: (campaignId) => markCampaignDue(client, campaignId),
  };
}

/** The assignments that make an enrolment's bound not known (the epoch: due at any round). */
/** `pagesByBound`'s cursor: one at a time in a transaction. */
const boundCursor = 'enrolments_by_bound';

export const dueNotKnown = `due_at = 'epoch', due_mark = due_mark + 1`;

/** `EnrolmentStore.markCampaignDue`; also what a campaign's update runs when it may move due times. */
export async function markCampaignDue(client: SqlClient, campaignId: string): Promise<void> {
  await client.query(`update enrolments set ${dueNotKnown} where campaign_id = $1 and removed_at is null`, [
    campaignId,
  ]);
}

const accountJson = new Set(['email_auth']);

/** Who an account sends as: a mailbox's address, a LinkedIn account's username. Migration 019 indexes it. */
const senderIdentityColumn = "case when platform = 'email' then email else platform_username end";

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
      const lock = options?.forUpdate ? ' order by id collate "C" for no key update' : '';
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
      // Migration 020's `sender_accounts_listed` (and its `_platform`, `_status` twins) is this order.
      return listPage<SenderAccountRecord>(
        client,
        { from: 'sender_accounts', where, params, orderBy: 'connected_at asc nulls last, id collate "C"' },
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
    async findSender(organizationId, platform, identity) {
      // Its own statement, before the read: a statement reads what was committed when it
      // began, so a read in the locking statement could miss the account of the transaction
      // it waited for.
      // The lock's key lowers the identity as the read does (PostgreSQL's `lower`, which may
      // differ from JavaScript's beyond ASCII), so that the two name the same sender.
      await client.query('select pg_advisory_xact_lock(hashtextextended($1 || lower($2), 0))', [
        `ocs:sender:${organizationId}:${platform}:`,
        identity,
      ]);
      const [row] = await client.query<SenderAccountRecord>(
        `select * from sender_accounts
          where organization_id = $1 and platform = $2 and lower(${senderIdentityColumn}) = lower($3)
          order by created_at, id collate "C" limit 1`,
        [organizationId, platform, identity],
      );
      return row ?? null;
    },
    async listCampaignUses(organizationId, accountIds) {
      if (accountIds.length === 0) return [];
      // One lookup of `campaigns_enabled_accounts` (GIN, migration 020) per account: `?`
      // tests whether the JSON array holds the string (top-level elements only). The lateral
      // `offset 0` cannot be flattened, so it stays a nested loop of index lookups whatever the
      // estimates; the organization is tested on the campaigns found, outside it (inside,
      // PostgreSQL without statistics combined it with `campaigns_newest` and read every
      // campaign of the organization for each account). Joined to the organization's
      // campaigns instead, a page of 100 accounts made 10 million tests at 100,000 campaigns.
      return client.query<{ account_id: string; campaign_id: string }>(
        `${planEachRun}select a.id as account_id, c.id as campaign_id
           from unnest($2::text[]) as a (id)
           cross join lateral (
             select id, created_at, organization_id from campaigns where enabled_accounts ? a.id offset 0) c
          where c.organization_id = $1
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
    async claimConnectLink(token, at) {
      // One statement: a concurrent claim waits for this row's lock, then finds `used_at` set.
      const [row] = await client.query<ConnectLinkRecord>(
        `update connect_links set used_at = $2
          where token = $1 and used_at is null and expires_at > $2
          returning *`,
        [token, at],
      );
      return row ?? null;
    },
    async recordConnectLinkAccount(token, accountId) {
      await client.query('update connect_links set account_id = $2 where token = $1', [token, accountId]);
    },
  };
}
