/** The API's Deal object, with the summary of its lead (null without one or once it is deleted). */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { DealRecord, LeadRecord } from '../store/records.ts';

export function leadSummaryView(lead: LeadRecord): Schemas['LeadSummary'] {
  return {
    id: lead.id,
    first_name: lead.first_name,
    last_name: lead.last_name,
    email: lead.email,
    company: lead.company,
  };
}

/** `lead` is the deal's live lead, or null when the deal has none or it was deleted. */
export function dealView(record: DealRecord, lead: LeadRecord | null): Schemas['Deal'] {
  return {
    id: record.id,
    name: record.name,
    lead_id: record.lead_id,
    lead: lead ? leadSummaryView(lead) : null,
    pipeline_id: record.pipeline_id,
    stage_id: record.stage_id,
    owner_id: record.owner_id,
    value: record.value,
    probability: record.probability,
    expected_close_date: toApiTime(record.expected_close_date),
    actual_close_date: toApiTime(record.actual_close_date),
    notes: record.notes,
    custom_fields: record.custom_fields,
    metadata: record.metadata,
    created_at: toApiTime(record.created_at),
    updated_at: toApiTime(record.updated_at),
  };
}
