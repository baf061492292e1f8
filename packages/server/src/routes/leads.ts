/**
 * Tag Leads: list, get and update (this file); create (leads-create.ts); remove from a
 * campaign and delete with erasure (leads-delete.ts).
 */
import { groupBy } from '../domain/collections.ts';
import { hasContact, leadDataFields, leadsOffset, pageOf, sameEmail } from '../domain/lead-rules.ts';
import { type ApiError, validationError, type ValidationIssue } from '../http/api-error.ts';
import type { Schemas } from '../openapi/types.ts';
import { UniqueViolation } from '../store/errors.ts';
import type { LeadRecord } from '../store/records.ts';
import type { LeadPatch } from '../store/types.ts';
import { leadView } from '../views/lead.ts';
import { findLead, leadNotFound } from '../lookups/lead.ts';
import { pageEnvelope } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';

export const leadHandlers: PartialHandlers = {
  async listLeads({ query, auth }, { store }) {
    const limit = query.limit ?? 20;
    const offset = leadsOffset(query, limit);
    if (!Number.isSafeInteger(offset)) {
      // A huge `page` (or `offset`) would overflow the database's offset; no such page exists.
      const field = query.offset === undefined ? 'query.page' : 'query.offset';
      throw validationError([{ field, message: 'is too large', type: 'maximum' }]);
    }
    const page = { limit, offset };
    const result = await store.leads.list(auth.organization.id, {
      ...page,
      campaign_id: query.campaign_id,
      email: query.email,
    });
    // Grouped once: each lead of the page looking through the page's every enrolment grew with
    // the page times its enrolments (20 leads in 4,000 campaigns each: 1.6 million checks).
    const enrolments = groupBy(
      await store.enrolments.listForLeads(result.items.map((lead) => lead.id)),
      (enrolment) => enrolment.lead_id,
    );
    const leads = { ...result, items: result.items.map((lead) => leadView(lead, enrolments.get(lead.id) ?? [])) };
    return {
      status: 200,
      body: { ...pageEnvelope('leads', leads, page, 'Leads retrieved'), page: pageOf(offset, limit) },
    };
  },

  async getLead({ path, auth }, { store }) {
    const lead = await findLead(store, auth.organization.id, path.lead_id);
    const enrolments = await store.enrolments.listForLead(lead.id);
    return { status: 200, body: { success: true, lead: leadView(lead, enrolments) } };
  },

  async updateLead({ path, body, auth, now }, { store }) {
    try {
      const updated = await store.transaction(async (tx) => {
        // Locked: the checks below hold against the lead as it is when written (two changes
        // clearing its email and its profile at once; an erasure committing meanwhile).
        const lead = await findLead(tx, auth.organization.id, path.lead_id, { lock: 'update' });
        const patch = leadPatch(body);
        assertUpdateAllowed(lead, patch, body);
        if (patch.email && !sameEmail(patch.email, lead.email)) {
          const holder = await tx.leads.findByEmail(auth.organization.id, patch.email);
          if (holder && holder.id !== lead.id) throw duplicateEmail();
        }
        const saved = await tx.leads.update(auth.organization.id, lead.id, { ...patch, updated_at: now.toISOString() });
        if (!saved) throw leadNotFound(lead.id);
        return { lead: saved, enrolments: await tx.enrolments.listForLead(saved.id) };
      });
      return {
        status: 200,
        body: { success: true, message: 'Lead updated', lead: leadView(updated.lead, updated.enrolments) },
      };
    } catch (error) {
      // Another request gave this email to another lead between our check and our write.
      if (error instanceof UniqueViolation) throw duplicateEmail();
      throw error;
    }
  },
};

const patchable = leadDataFields;

/** The body as a store patch: omitted fields stay, `null` clears, `custom_fields: null` empties. */
function leadPatch(body: Schemas['LeadUpdate']): LeadPatch {
  const patch: Record<string, unknown> = {};
  for (const field of patchable) if (body[field] !== undefined) patch[field] = body[field];
  if (body.custom_fields !== undefined) patch.custom_fields = body.custom_fields ?? {};
  return patch as LeadPatch;
}

/** A lead must keep an `email` or a `linkedin_profile`. */
function assertUpdateAllowed(lead: LeadRecord, patch: LeadPatch, body: Schemas['LeadUpdate']): void {
  const next = { ...lead, ...patch };
  if (hasContact(next)) return;
  const cleared = (['email', 'linkedin_profile'] as const).filter((field) => body[field] === null);
  const issues: ValidationIssue[] = (cleared.length > 0 ? cleared : (['email'] as const)).map((field) => ({
    field: `body.${field}`,
    message: 'cannot be cleared: a lead needs an email or a linkedin_profile',
    type: 'required',
  }));
  throw validationError(
    issues,
    'Request validation failed: a lead needs an email or a linkedin_profile; set one before clearing the other.',
  );
}

function duplicateEmail(): ApiError {
  return validationError(
    [{ field: 'body.email', message: 'another lead of this organization has this email', type: 'duplicate' }],
    'Request validation failed: body.email is already used by another lead of this organization. Find it with GET /v1/leads?email=.',
  );
}
