/**
 * What every simulation starts from: the campaign, the live lead, its live enrolment in the
 * campaign and its events, with the sandbox's own errors when one is missing.
 */
import { messageKinds } from '../domain/activity.ts';
import type { Channel } from '../domain/channels.ts';
import { ApiError } from '../http/api-error.ts';
import { findCampaign } from '../routes/campaigns.ts';
import { findLead } from '../routes/lead-lookup.ts';
import type {
  ActivityEventRecord,
  ActivityKind,
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
  const lead = await findLead(store, organizationId, leadId);
  const enrolment = await store.enrolments.find(campaign.id, lead.id);
  if (!enrolment) {
    throw new ApiError(409, 'LEAD_NOT_ENROLLED', `Lead ${lead.id} is not enrolled in campaign ${campaign.id}.`);
  }
  const events = await store.activity.listForEnrolment(enrolment.id);
  return { campaign, lead, enrolment, events };
}

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
