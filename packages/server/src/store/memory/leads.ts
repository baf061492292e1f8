/** Memory implementations of the lead, enrolment and sender account stores. */
import { foldCase } from '../../domain/fold-case.ts';
import { UniqueViolation, uniqueConstraints } from '../errors.ts';
import type { EnrolmentRecord, EnrolmentWithLeadRecord, LeadRecord } from '../records.ts';
import type { DueEntry, EnrolmentStore, LeadStore, SenderAccountStore } from '../types.ts';
import type { EnrolmentDue, MemoryState } from './state.ts';
import { compareText, copyRecord, newestFirst, oldestFirst, patchRow } from './table.ts';

/** The personal and company fields that deletion overwrites. */
export const erasedLeadFields = {
  email: null,
  first_name: null,
  last_name: null,
  company: null,
  title: null,
  industry: null,
  website: null,
  linkedin_profile: null,
  annual_revenue: null,
  employee_count: null,
  custom_fields: {},
} satisfies Partial<LeadRecord>;

export function memoryLeads(state: MemoryState): LeadStore {
  const live = (organizationId: string, id: string) => {
    const lead = state.leads.get(id);
    return lead && lead.organization_id === organizationId && lead.deleted_at === null ? lead : null;
  };
  // The SQL unique index `leads_email`: live leads only, lower(email), emails that are set.
  const assertEmailFree = (organizationId: string, email: string | null | undefined, exceptId: string) => {
    if (email === null || email === undefined) return;
    const wanted = foldCase(email);
    const taken = state.leads.where(
      (l) =>
        l.organization_id === organizationId &&
        l.deleted_at === null &&
        l.id !== exceptId &&
        foldOptional(l.email) === wanted,
    );
    if (taken.length > 0) throw new UniqueViolation(uniqueConstraints.leadEmail);
  };
  return {
    async insert(record) {
      if (record.deleted_at === null) assertEmailFree(record.organization_id, record.email, record.id);
      state.leads.set(record.id, record);
    },
    async insertMissing(records) {
      // The live leads holding the emails sought, in one pass over the table that copies
      // only those (copying every lead made each single create cost the whole table).
      const emailKey = (lead: LeadRecord) => `${lead.organization_id} ${foldOptional(lead.email)}`;
      const wanted = new Set(records.filter((record) => record.email !== null).map(emailKey));
      const holder = new Map<string, LeadRecord>();
      if (wanted.size > 0) {
        state.leads.scan((lead) => {
          if (lead.deleted_at === null && lead.email !== null && wanted.has(emailKey(lead))) {
            holder.set(emailKey(lead), copyRecord(lead));
          }
        });
      }
      return records.map((record) => {
        const key = record.email === null ? undefined : emailKey(record);
        const existing = key === undefined ? undefined : holder.get(key);
        if (existing) return { lead: existing, inserted: false };
        state.leads.set(record.id, record);
        if (key !== undefined) holder.set(key, record);
        return { lead: record, inserted: true };
      });
    },
    async get(organizationId, id) {
      return live(organizationId, id);
    },
    async getMany(organizationId, ids) {
      return ids.map((id) => live(organizationId, id)).filter((lead): lead is LeadRecord => lead !== null);
    },
    async findByEmail(organizationId, email) {
      const wanted = foldCase(email);
      return (
        state.leads
          .where(
            (l) => l.organization_id === organizationId && l.deleted_at === null && foldOptional(l.email) === wanted,
          )
          .sort(oldestFirst)[0] ?? null
      );
    },
    async list(organizationId, filter) {
      const enrolled = filter.campaign_id
        ? new Set(
            state.enrolments
              .whereIndexed('campaign', filter.campaign_id, (e) => e.removed_at === null)
              .map((e) => e.lead_id),
          )
        : null;
      const email = foldOptional(filter.email);
      return state.leads.page(
        (l) =>
          l.organization_id === organizationId &&
          l.deleted_at === null &&
          (enrolled === null || enrolled.has(l.id)) &&
          (email === undefined || foldOptional(l.email) === email),
        newestFirst,
        filter,
      );
    },
    async update(organizationId, id, patch) {
      if (!live(organizationId, id)) return null;
      assertEmailFree(organizationId, patch.email, id);
      return patchRow(state.leads, id, patch);
    },
    async erase(organizationId, id, at) {
      if (!live(organizationId, id)) return false;
      patchRow(state.leads, id, { ...erasedLeadFields, deleted_at: at, updated_at: at });
      return true;
    },
    async getRow(organizationId, id) {
      const lead = state.leads.get(id);
      return lead && lead.organization_id === organizationId ? lead : null;
    },
  };
}

export function memoryEnrolments(state: MemoryState): EnrolmentStore {
  return {
    async insert(record) {
      // The SQL unique index `enrolments_live`: one live enrolment per campaign and lead.
      const live = state.enrolments.whereIndexed(
        'lead',
        record.lead_id,
        (e) => e.campaign_id === record.campaign_id && e.removed_at === null,
      );
      if (record.removed_at === null && live.length > 0) throw new UniqueViolation(uniqueConstraints.liveEnrolment);
      state.enrolments.set(record.id, record);
    },
    async insertMany(records) {
      const live = new Set(
        state.enrolments.where((e) => e.removed_at === null).map((e) => `${e.campaign_id} ${e.lead_id}`),
      );
      for (const record of records) {
        if (!state.leads.has(record.lead_id)) throw new Error(`enrolment ${record.id}: no lead ${record.lead_id}`);
        if (record.removed_at !== null) continue;
        const key = `${record.campaign_id} ${record.lead_id}`;
        if (live.has(key)) throw new UniqueViolation(uniqueConstraints.liveEnrolment);
        live.add(key);
      }
      for (const record of records) state.enrolments.set(record.id, record);
    },
    async find(campaignId, leadId) {
      return (
        state.enrolments.whereIndexed(
          'lead',
          leadId,
          (e) => e.campaign_id === campaignId && e.removed_at === null,
        )[0] ?? null
      );
    },
    async listForLead(leadId) {
      return state.enrolments
        .whereIndexed('lead', leadId, (e) => e.removed_at === null)
        .sort((a, b) => compareText(a.enrolled_at, b.enrolled_at) || compareText(a.id, b.id));
    },
    async listForLeads(leadIds) {
      return [...new Set(leadIds)]
        .flatMap((leadId) => state.enrolments.whereIndexed('lead', leadId, (e) => e.removed_at === null))
        .sort((a, b) => compareText(a.enrolled_at, b.enrolled_at) || compareText(a.id, b.id));
    },
    async countForCampaign(campaignId) {
      return state.enrolments.whereIndexed(
        'campaign',
        campaignId,
        (e) => e.removed_at === null && state.leads.get(e.lead_id)?.deleted_at === null,
      ).length;
    },
    async listLeadsForCampaign(campaignId) {
      return state.enrolments
        .whereIndexed('campaign', campaignId, (e) => e.removed_at === null)
        .sort((a, b) => compareText(a.enrolled_at, b.enrolled_at) || compareText(a.id, b.id))
        .flatMap((e) => {
          const lead = state.leads.get(e.lead_id);
          return lead && lead.deleted_at === null ? [lead] : [];
        });
    },
    async update(id, patch, due) {
      patchRow(state.enrolments, id, patch);
      if (due) writeDue(state, { id, ...due });
    },
    async listDue(campaignId, at) {
      const by = Date.parse(at);
      return state.enrolments
        .whereIndexed('campaign', campaignId, (e) => {
          const due = dueOf(state, e.id);
          return due.due_ms !== null && due.due_ms <= by;
        })
        .sort((a, b) => Date.parse(a.enrolled_at) - Date.parse(b.enrolled_at) || compareText(a.id, b.id))
        .map((e) => ({
          ...withLeadDeletedAt(state, e),
          // A lead row is never removed (an erasure blanks it in place): always found.
          lead_updated_at: state.leads.get(e.lead_id)?.updated_at ?? '',
          due_mark: dueOf(state, e.id).mark,
        }));
    },
    async earliestDueAfter(campaignId, at) {
      const after = Date.parse(at);
      let earliest: EnrolmentDue | null = null;
      for (const e of state.enrolments.whereIndexed('campaign', campaignId)) {
        const due = dueOf(state, e.id);
        if (due.due_ms === null || due.due_ms <= after) continue;
        if (earliest === null || due.due_ms < (earliest.due_ms as number)) earliest = due;
      }
      return earliest?.due_at ?? null;
    },
    async *pagesByBound(campaignId, pageSize) {
      // Read whole at the first page, as the SQL store's one statement is.
      const ordered = state.enrolments
        .whereIndexed('campaign', campaignId)
        .flatMap((enrolment) => {
          const { due_ms } = dueOf(state, enrolment.id);
          // Not known (-Infinity) is the epoch, as the SQL store keeps it.
          return due_ms === null ? [] : [{ enrolment, due_ms: Math.max(due_ms, 0) }];
        })
        .sort((a, b) => a.due_ms - b.due_ms || compareText(a.enrolment.id, b.enrolment.id))
        .map(({ enrolment, due_ms }) => ({
          ...withLeadDeletedAt(state, enrolment),
          due_at: new Date(due_ms).toISOString(),
        }));
      for (let start = 0; start < ordered.length; start += pageSize) yield ordered.slice(start, start + pageSize);
    },
    async setDue(entries) {
      return entries.filter((entry) => writeDue(state, entry)).length;
    },
    async markCampaignDue(campaignId) {
      markCampaignDue(state, campaignId);
    },
  };
}

/** An enrolment as `listEnrolments` gives it: with when its lead was deleted. */
export function withLeadDeletedAt(state: MemoryState, enrolment: EnrolmentRecord): EnrolmentWithLeadRecord {
  return { ...enrolment, lead_deleted_at: state.leads.get(enrolment.lead_id)?.deleted_at ?? null };
}

/** `setDue` of one entry: whether it was written (the enrolment's mark was still `mark`). */
function writeDue(state: MemoryState, { id, due_at, mark }: DueEntry): boolean {
  if (!state.enrolments.has(id) || dueOf(state, id).mark !== mark) return false;
  state.enrolmentDue.set(id, { due_at, due_ms: due_at === null ? null : Date.parse(due_at), mark: mark + 1 });
  return true;
}

/** An enrolment's row of the schedule; none yet: not known, mark 0. */
function dueOf(state: MemoryState, enrolmentId: string): EnrolmentDue {
  return state.enrolmentDue.get(enrolmentId) ?? { due_at: null, due_ms: Number.NEGATIVE_INFINITY, mark: 0 };
}

/** `EnrolmentStore.markCampaignDue`; also what a campaign's update runs when it may move due times. */
export function markCampaignDue(state: MemoryState, campaignId: string): void {
  for (const e of state.enrolments.whereIndexed('campaign', campaignId, (row) => row.removed_at === null)) {
    markNotKnown(state, e.id);
  }
}

/** Makes one enrolment's bound not known (`ActivityStore.insert` of an event that `decidesPath`). */
export function markNotKnown(state: MemoryState, enrolmentId: string): void {
  const { mark } = dueOf(state, enrolmentId);
  state.enrolmentDue.set(enrolmentId, { due_at: null, due_ms: Number.NEGATIVE_INFINITY, mark: mark + 1 });
}

export function memoryAccounts(state: MemoryState): SenderAccountStore {
  const owned = (organizationId: string, id: string) => {
    const account = state.accounts.get(id);
    return account && account.organization_id === organizationId ? account : null;
  };
  return {
    async insert(record) {
      state.accounts.set(record.id, record);
    },
    async get(organizationId, id) {
      return owned(organizationId, id);
    },
    async getMany(organizationId, ids) {
      return ids.flatMap((id) => owned(organizationId, id) ?? []);
    },
    async list(organizationId, filter) {
      return state.accounts.page(
        (a) =>
          a.organization_id === organizationId &&
          (filter.platform === undefined || a.platform === filter.platform) &&
          (filter.status === undefined || a.status === filter.status),
        (a, b) => {
          if (a.connected_at === null || b.connected_at === null) {
            if (a.connected_at !== b.connected_at) return a.connected_at === null ? 1 : -1;
          } else if (a.connected_at !== b.connected_at) {
            return compareText(a.connected_at, b.connected_at);
          }
          return compareText(a.id, b.id);
        },
        filter,
      );
    },
    async update(organizationId, id, patch) {
      return owned(organizationId, id) ? patchRow(state.accounts, id, patch) : null;
    },
    // The memory store's transactions run one at a time: no lock to take.
    async findSender(organizationId, platform, identity) {
      const wanted = foldCase(identity);
      return (
        state.accounts
          .where(
            (a) =>
              a.organization_id === organizationId &&
              a.platform === platform &&
              // Its address for a mailbox, else its username, as `senderIdentityColumn` (sql/leads.ts).
              foldOptional(a.platform === 'email' ? a.email : a.platform_username) === wanted,
          )
          .sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.id, b.id))[0] ?? null
      );
    },
    async listCampaignUses(organizationId, accountIds) {
      const uses: Array<{ account_id: string; campaign_id: string; created_at: string }> = [];
      const campaigns = state.campaigns.where((c) => c.organization_id === organizationId);
      for (const accountId of new Set(accountIds)) {
        for (const campaign of campaigns) {
          if (campaign.enabled_accounts.includes(accountId)) {
            uses.push({ account_id: accountId, campaign_id: campaign.id, created_at: campaign.created_at });
          }
        }
      }
      return uses
        .sort(
          (a, b) =>
            compareText(a.account_id, b.account_id) ||
            compareText(a.created_at, b.created_at) ||
            compareText(a.campaign_id, b.campaign_id),
        )
        .map(({ account_id, campaign_id }) => ({ account_id, campaign_id }));
    },
    async insertConnectLink(record) {
      if (state.connectLinks.has(record.token)) throw new UniqueViolation('connect_links_pkey');
      state.connectLinks.set(record.token, record);
    },
    async getConnectLink(token) {
      return state.connectLinks.get(token) ?? null;
    },
    async claimConnectLink(token, at) {
      // No await between the check and the write: no other caller runs in between.
      const link = state.connectLinks.get(token);
      if (!link || link.used_at !== null || !(link.expires_at > at)) return null;
      return patchRow(state.connectLinks, token, { used_at: at });
    },
    async recordConnectLinkAccount(token, accountId) {
      if (state.connectLinks.has(token)) patchRow(state.connectLinks, token, { account_id: accountId });
    },
  };
}

/** `foldCase` of a value that may be absent (`lower(null)` is null), as the SQL stores compare. */
function foldOptional(text: string | null | undefined): string | undefined {
  return text == null ? undefined : foldCase(text);
}
