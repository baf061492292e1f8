/**
 * Tag Leads: `POST /leads` and its deprecated twin `POST /leads/create` (same body, same
 * answers; the app adds the deprecation headers). Creates a lead, or finds the live lead
 * with the same email, and enrols it when `campaign_id` is given, in one transaction.
 */
import { validationError } from '../http/api-error.ts';
import type { AuthContext } from '../http/auth.ts';
import type { SuccessResponse } from '../openapi/types.ts';
import { UniqueViolation } from '../store/errors.ts';
import type { CampaignRecord, EnrolmentRecord, LeadRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { leadView } from '../views/lead.ts';
import type { PartialHandlers } from './registry.ts';
import { newEnrolment } from '../domain/new-enrolment.ts';
import { type LeadInput, newLead } from '../domain/new-lead.ts';
import { importLeads } from './leads-import.ts';

interface Outcome {
  lead: LeadRecord;
  enrolments: EnrolmentRecord[];
  created: boolean;
  campaign: CampaignRecord | null;
  enrolment: { id: string; created: boolean } | null;
}

/**
 * Two concurrent creates of one email (or enrolments of one lead) both find nothing, and the
 * second insert hits the store's unique index and fails with its transaction. Running again
 * finds what the first one wrote: the same-email answer. One retry suffices (the winner has
 * committed when the loser's insert fails); a third attempt covers a create racing an
 * enrolment of the same lead.
 */
const attempts = 3;

async function createLead(
  input: LeadInput,
  auth: AuthContext,
  now: Date,
  store: Store,
): Promise<SuccessResponse<'createLeadLegacy'>> {
  let outcome: Outcome | undefined = input.campaign_id
    ? undefined
    : await createOrFindAlone(store, auth.organization.id, input, now.toISOString());
  for (let attempt = 1; outcome === undefined; attempt++) {
    try {
      outcome = await store.transaction((tx) => createOrFind(tx, auth.organization.id, input, now.toISOString()));
    } catch (error) {
      if (!(error instanceof UniqueViolation) || attempt >= attempts) throw error;
    }
  }
  const lead = leadView(outcome.lead, outcome.enrolments);
  const sequenceLeadId = outcome.enrolment?.id ?? null;
  if (outcome.created) {
    const message = outcome.campaign
      ? `Lead created and enrolled in campaign ${outcome.campaign.name}`
      : 'Lead created';
    return {
      status: 201,
      body: { success: true, message, created: true, sequence_lead_id: sequenceLeadId, lead },
    };
  }
  const enrolled = !outcome.enrolment
    ? ''
    : outcome.enrolment.created
      ? ` Enrolled in campaign ${outcome.campaign?.name ?? ''}.`
      : ' Already enrolled in the campaign.';
  return {
    status: 200,
    body: {
      success: true,
      message: `A lead with this email already exists; returned unchanged.${enrolled}`,
      created: false,
      sequence_lead_id: sequenceLeadId,
      lead,
    },
  };
}

/**
 * Without `campaign_id` the create is one statement, atomic by itself, so it runs without a
 * transaction: its BEGIN and COMMIT were two of the three round trips of the request. An
 * existing lead's enrolments are read after it (only for the same-email answer).
 */
async function createOrFindAlone(store: Store, organizationId: string, input: LeadInput, at: string): Promise<Outcome> {
  const [resolved] = await store.leads.insertMissing([newLead(organizationId, input, at)]);
  if (!resolved) throw new Error('insertMissing answered nothing for one lead');
  const { lead, inserted } = resolved;
  const enrolments = inserted ? [] : await store.enrolments.listForLead(lead.id);
  return { lead, enrolments, created: inserted, campaign: null, enrolment: null };
}

async function createOrFind(tx: Store, organizationId: string, input: LeadInput, at: string): Promise<Outcome> {
  let campaign: CampaignRecord | null = null;
  if (input.campaign_id) {
    campaign = await tx.campaigns.get(organizationId, input.campaign_id);
    if (!campaign) {
      throw validationError(
        [{ field: 'body.campaign_id', message: 'campaign not found', type: 'not_found' }],
        'Request validation failed: body.campaign_id is not a campaign of this organization. List your campaigns with GET /v1/campaigns.',
      );
    }
  }
  // One statement creates the lead or answers the live lead holding its email (the batch
  // form's, decision 0012): a round trip fewer than a lookup and then an insert.
  const [resolved] = await tx.leads.insertMissing([newLead(organizationId, input, at)]);
  if (!resolved) throw new Error('insertMissing answered nothing for one lead');
  const { lead } = resolved;
  const existing = resolved.inserted ? null : lead;

  let enrolment: Outcome['enrolment'] = null;
  const newEnrolments: EnrolmentRecord[] = [];
  if (campaign) {
    const current = existing ? await tx.enrolments.find(campaign.id, lead.id) : null;
    if (current) {
      enrolment = { id: current.id, created: false };
    } else {
      const record = newEnrolment(organizationId, campaign.id, lead.id, at);
      await tx.enrolments.insert(record);
      newEnrolments.push(record);
      enrolment = { id: record.id, created: true };
    }
  }
  // A lead created here has no enrolment but the one just made: no read back.
  const enrolments = existing ? await tx.enrolments.listForLead(lead.id) : newEnrolments;
  return { lead, enrolments, created: !existing, campaign, enrolment };
}

export const leadCreateHandlers: PartialHandlers = {
  // The batch form (`{ leads: [...] }`) or one lead; the legacy operation has the single form only.
  createLead: async ({ body, auth, now, requestId }, { store, bulkWritten }) => {
    if (!('leads' in body)) return createLead(body, auth, now, store);
    const answer = await importLeads(body.leads as LeadInput[], auth, now, requestId, store);
    // The tables may have grown by more than the planner's statistics know (decision 0006);
    // the check finds out whether they did.
    bulkWritten?.();
    return answer;
  },
  // The single form's body and answers (the batch form is the successor's only); the app
  // adds the Deprecation and Link headers.
  createLeadLegacy: ({ body, auth, now }, { store }) => createLead(body, auth, now, store),
};
