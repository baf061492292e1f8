/** A new enrolment's record: a lead added to a campaign by `POST /leads` (one lead or a batch). */
import type { EnrolmentRecord } from '../store/records.ts';
import { newId } from './ids.ts';

export function newEnrolment(organizationId: string, campaignId: string, leadId: string, at: string): EnrolmentRecord {
  return {
    id: newId(),
    organization_id: organizationId,
    campaign_id: campaignId,
    lead_id: leadId,
    // The A/B arm is drawn when the first step is sent (LeadEnrolment.variation), not here.
    status: 'not_contacted',
    variation: null,
    enrolled_at: at,
    removed_at: null,
  };
}
