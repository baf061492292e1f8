/** The API's Lead object (with its enrolments) and LeadEnrolment from store records. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { EnrolmentRecord, LeadRecord } from '../store/records.ts';

export function enrolmentView(record: EnrolmentRecord): Schemas['LeadEnrolment'] {
  return {
    campaign_id: record.campaign_id,
    sequence_lead_id: record.id,
    status: record.status,
    variation: record.variation,
    enrolled_at: toApiTime(record.enrolled_at),
  };
}

/** `enrolments`: the lead's live enrolments (the store's `listForLead` order). */
export function leadView(record: LeadRecord, enrolments: EnrolmentRecord[]): Schemas['Lead'] {
  return {
    id: record.id,
    email: record.email,
    first_name: record.first_name,
    last_name: record.last_name,
    company: record.company,
    title: record.title,
    industry: record.industry,
    website: record.website,
    linkedin_profile: record.linkedin_profile,
    annual_revenue: record.annual_revenue,
    employee_count: record.employee_count,
    custom_fields: record.custom_fields,
    enrolments: enrolments.filter((e) => e.lead_id === record.id).map(enrolmentView),
    created_at: toApiTime(record.created_at),
    updated_at: toApiTime(record.updated_at),
  };
}
