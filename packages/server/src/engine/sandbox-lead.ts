/**
 * What every simulation starts from: the campaign, the live lead, its live enrolment in the
 * campaign and its events, with the sandbox's own errors when one is missing.
 */
import { messageKinds } from '../domain/activity.ts';
import type { Channel } from '../domain/channels.ts';
import { ApiError } from '../http/api-error.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { findLead } from '../lookups/lead.ts';
import { newId } from '../domain/ids.ts';
import type {
  ActivityEventRecord,
  ActivityKind,
  BookingRecord,
  CampaignRecord,
  EnrolmentRecord,
  LeadRecord,
} from '../store/records.ts';
import type { Store } from '../store/types.ts';

export interface SandboxLead {
  campaign: CampaignRecord;
  lead: LeadRecord;
  enrolment: EnrolmentRecord;
  /** The sequence lead's events, oldest first. */
  events: ActivityEventRecord[];
}

export async function findSandboxLead(
  store: Store,
  organizationId: string,
  campaignId: string,
  leadId: string,
): Promise<SandboxLead> {
  const campaign = await findCampaign(store, organizationId, campaignId);
  // In a transaction, the sequence lead's lock (a step and an erasure take it too) is taken
  // before the lead is read: a lead erased meanwhile is then found deleted, never copied.
  const enrolment = await store.enrolments.find(campaign.id, leadId, { forUpdate: true });
  const lead = await findLead(store, organizationId, leadId);
  if (!enrolment) throw notEnrolled({ campaign, lead });
  const events = await store.activity.listForEnrolment(enrolment.id);
  return { campaign, lead, enrolment, events };
}

export const notEnrolled = (found: Pick<SandboxLead, 'campaign' | 'lead'>) =>
  new ApiError(409, 'LEAD_NOT_ENROLLED', `Lead ${found.lead.id} is not enrolled in campaign ${found.campaign.id}.`);

/**
 * The latest event of one of `kinds` on `channel`: the message a reply or an engagement
 * answers. Without one, the lead was never contacted that way: `409 LEAD_NOT_CONTACTED`.
 */
export function lastContact(
  found: SandboxLead,
  channel: Channel,
  kinds: readonly ActivityKind[] = messageKinds,
  what = `a message on ${channel}`,
): ActivityEventRecord {
  const contact = [...found.events].reverse().find((e) => e.channel === channel && kinds.includes(e.kind));
  if (!contact) {
    throw new ApiError(
      409,
      'LEAD_NOT_CONTACTED',
      `Lead ${found.lead.id} was not sent ${what} in campaign ${found.campaign.id} yet; advance the sandbox clock until the step runs (GET /v1/campaigns/${found.campaign.id}/queue shows when).`,
    );
  }
  return contact;
}

/**
 * A new event of the sequence lead that is not a step (an engagement or a reply), on the
 * account of the message it answers.
 */
export function leadEvent(
  found: SandboxLead,
  fields: Pick<ActivityEventRecord, 'kind' | 'channel' | 'account_id' | 'occurred_at' | 'data'>,
): ActivityEventRecord {
  return {
    id: newId(),
    organization_id: found.campaign.organization_id,
    campaign_id: found.campaign.id,
    enrolment_id: found.enrolment.id,
    lead_id: found.lead.id,
    variation: found.enrolment.variation,
    step_id: null,
    ...fields,
  };
}

/** A booking of the sequence lead: a calendar meeting or a confirmation (section 2). */
export function leadBooking(
  found: SandboxLead,
  at: string,
  fields: Pick<BookingRecord, 'kind'> & Partial<BookingRecord>,
): BookingRecord {
  return {
    id: newId(),
    organization_id: found.campaign.organization_id,
    campaign_id: found.campaign.id,
    enrolment_id: found.enrolment.id,
    lead_id: found.lead.id,
    booked_at: at,
    start_time: null,
    status: null,
    invitee_name: null,
    invitee_email: null,
    canceled_at: null,
    rescheduled: null,
    confirmed_by: null,
    ...fields,
  };
}
