/** A new lead's record from the body of `POST /leads` (one lead, or one item of a batch). */
import type { Schemas } from '../openapi/types.ts';
import type { LeadRecord } from '../store/records.ts';
import { newId } from './ids.ts';

/** The body's fields (the document's `anyOf` only adds that `email` or `linkedin_profile` is set). */
export type LeadInput = Extract<Schemas['LeadInput'], { campaign_id?: unknown }>;

export function newLead(organizationId: string, input: LeadInput, at: string): LeadRecord {
  return {
    id: newId(),
    organization_id: organizationId,
    email: input.email ?? null,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    company: input.company ?? null,
    title: input.title ?? null,
    industry: input.industry ?? null,
    website: input.website ?? null,
    linkedin_profile: input.linkedin_profile ?? null,
    annual_revenue: input.annual_revenue ?? null,
    employee_count: input.employee_count ?? null,
    custom_fields: input.custom_fields ?? {},
    deleted_at: null,
    created_at: at,
    updated_at: at,
  };
}
