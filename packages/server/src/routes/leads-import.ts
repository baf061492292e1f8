/**
 * Tag Leads: the batch form of `POST /leads` (`{ leads: [...] }`, decisions 0012 and 0017).
 * Each item is applied as if it were sent alone to `POST /leads`, in order, but the whole
 * batch is a few statements whatever its size: the campaigns named, one insert of the leads
 * that answers the existing lead of each email already taken (`insertMissing`), one read of
 * the existing leads' enrolments, one insert of the new enrolments; in one transaction when
 * it enrols (without a campaign the insert is the only write).
 * `Idempotency-Key` is the app's middleware.
 */
import { foldCase } from '../domain/fold-case.ts';
import type { ApiError } from '../http/api-error.ts';
import { validationError } from '../http/api-error.ts';
import type { AuthContext } from '../http/auth.ts';
import type { Schemas, SuccessResponse } from '../openapi/types.ts';
import { UniqueViolation } from '../store/errors.ts';
import type { CampaignRecord, EnrolmentRecord, LeadRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { newEnrolment } from '../domain/new-enrolment.ts';
import { type LeadInput, newLead } from '../domain/new-lead.ts';

type ItemResult = Schemas['LeadBatchItemResult'];

/** What an item came to. */
type Outcome =
  | {
      index: number;
      kind: 'lead';
      leadId: string;
      created: boolean;
      enrolment: { id: string; created: boolean } | null;
    }
  | { index: number; kind: 'refused'; error: ApiError };

/** As `POST /leads`: a concurrent create of one of the batch's emails makes the insert fail; run again. */
const attempts = 3;

export async function importLeads(
  items: LeadInput[],
  auth: AuthContext,
  now: Date,
  requestId: string,
  store: Store,
): Promise<SuccessResponse<'createLead'>> {
  let applied: Outcome[] | undefined;
  // Without a campaign the batch writes with one statement (the leads' insert), atomic by
  // itself, and then only reads: as the single form, it runs without BEGIN and COMMIT.
  const writesOnce = items.every((item) => !item.campaign_id);
  for (let attempt = 1; applied === undefined; attempt++) {
    try {
      const at = now.toISOString();
      applied = writesOnce
        ? await apply(store, auth.organization.id, items, at)
        : await store.transaction((tx) => apply(tx, auth.organization.id, items, at));
    } catch (error) {
      if (!(error instanceof UniqueViolation) || attempt >= attempts) throw error;
    }
  }
  const results = applied.map((outcome) => toResult(outcome, requestId));
  const created = results.filter((result) => result.status === 201).length;
  const existing = results.filter((result) => result.status === 200).length;
  const failed = results.length - created - existing;
  return {
    status: 207,
    body: {
      success: true,
      message: `Imported ${results.length} lead${results.length === 1 ? '' : 's'}: ${created} created, ${existing} already existed, ${failed} refused.`,
      created,
      existing,
      failed,
      results,
    },
  };
}

async function apply(tx: Store, organizationId: string, items: LeadInput[], at: string) {
  const campaigns = new Map<string, CampaignRecord | null>();
  for (const id of new Set(items.flatMap((item) => (item.campaign_id ? [item.campaign_id] : [])))) {
    campaigns.set(id, await tx.campaigns.get(organizationId, id));
  }
  const refused = (item: LeadInput) => Boolean(item.campaign_id && !campaigns.get(item.campaign_id));

  // One new record per email (compared case-insensitively) and per lead without one: a
  // later item of the same email counts as an existing lead, as it would had the items
  // been sent one by one. A refused item creates nothing, so it gets no record.
  const byEmail = new Map<string, LeadRecord>();
  const recordOf = items.map((item) => {
    if (refused(item)) return undefined;
    const key = item.email == null ? undefined : foldCase(item.email);
    const known = key === undefined ? undefined : byEmail.get(key);
    if (known) return known;
    const record = newLead(organizationId, item, at);
    if (key !== undefined) byEmail.set(key, record);
    return record;
  });
  // (The store sends them in email order, so that two batches sharing emails take the unique
  // index's locks in one order.)
  const records = [...new Set(recordOf.filter((record) => record !== undefined))];
  const resolved = await tx.leads.insertMissing(records);
  const leadOf = new Map(
    records.map((record, i) => [record.id, resolved[i] as { lead: LeadRecord; inserted: boolean }]),
  );

  // The enrolment of each (lead, campaign) pair, found or made: one lookup per item, so a
  // batch that enrols one lead in thousands of campaigns stays linear.
  const enrolmentOf = new Map<string, string>();
  const pair = (leadId: string, campaignId: string) => `${leadId} ${campaignId}`;
  const existingIds = resolved.filter((r) => !r.inserted).map((r) => r.lead.id);
  for (const enrolment of await tx.enrolments.listForLeads(existingIds)) {
    enrolmentOf.set(pair(enrolment.lead_id, enrolment.campaign_id), enrolment.id);
  }
  const newEnrolments: EnrolmentRecord[] = [];
  const answered = new Set<string>();
  const outcomes = items.map((item, index): Outcome => {
    const record = recordOf[index];
    const campaign = item.campaign_id ? (campaigns.get(item.campaign_id) ?? null) : null;
    if (!record) {
      return {
        index,
        kind: 'refused',
        error: validationError(
          [{ field: `body.leads[${index}].campaign_id`, message: 'campaign not found', type: 'not_found' }],
          `Request validation failed: body.leads[${index}].campaign_id is not a campaign of this organization. List your campaigns with GET /v1/campaigns.`,
        ),
      };
    }
    const { lead, inserted } = leadOf.get(record.id) as { lead: LeadRecord; inserted: boolean };
    // Only the first item of a new lead created it; the next ones found it.
    const created = inserted && !answered.has(lead.id);
    answered.add(lead.id);
    let enrolment: { id: string; created: boolean } | null = null;
    if (campaign) {
      const current = enrolmentOf.get(pair(lead.id, campaign.id));
      if (current) {
        enrolment = { id: current, created: false };
      } else {
        const enrolmentRecord = newEnrolment(organizationId, campaign.id, lead.id, at);
        newEnrolments.push(enrolmentRecord);
        enrolmentOf.set(pair(lead.id, campaign.id), enrolmentRecord.id);
        enrolment = { id: enrolmentRecord.id, created: true };
      }
    }
    return { index, kind: 'lead', leadId: lead.id, created, enrolment };
  });
  await tx.enrolments.insertMany(
    newEnrolments.sort((a, b) => compare(a.campaign_id, b.campaign_id) || compare(a.lead_id, b.lead_id)),
  );
  return outcomes;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An item's result names its lead by ID rather than by its view: a view per item repeated a
 * large lead once per item naming it, and a lead enrolled in K campaigns by one batch K times
 * with K enrolments (decision 0012, "The answer"). Its message is a few fixed words for the
 * same reason (the single form's names the campaign).
 */
function toResult(outcome: Outcome, requestId: string): ItemResult {
  if (outcome.kind === 'refused') {
    const { error, index } = outcome;
    return {
      index,
      status: 400,
      success: false,
      error: error.code as 'VALIDATION_ERROR',
      message: error.message,
      details: error.details as { errors: [] },
      request_id: requestId,
    };
  }
  const { index, leadId: lead_id, created, enrolment } = outcome;
  const sequence_lead_id = enrolment?.id ?? null;
  if (created) {
    const message = enrolment ? 'Lead created and enrolled in the campaign.' : 'Lead created.';
    return { index, status: 201, success: true, message, created, lead_id, sequence_lead_id };
  }
  const message = !enrolment
    ? 'A lead with this email already exists; left unchanged.'
    : enrolment.created
      ? 'A lead with this email already exists; left unchanged, and enrolled in the campaign.'
      : 'A lead with this email already exists; left unchanged, and already enrolled in the campaign.';
  return { index, status: 200, success: true, message, created: false, lead_id, sequence_lead_id };
}
