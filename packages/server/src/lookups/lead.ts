/** Finding a lead named in a request, shared by the lead operations and the engine's replies. */
import { ApiError } from '../http/api-error.ts';
import type { LeadRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';

export const leadNotFound = (leadId: string) =>
  new ApiError(404, 'LEAD_NOT_FOUND', `Lead ${leadId} not found. List your leads with GET /v1/leads.`);

/**
 * The live lead, or `404 LEAD_NOT_FOUND` (also for a deleted lead or another organization's);
 * `lock` as `LeadStore.get` takes it.
 */
export async function findLead(
  store: Store,
  organizationId: string,
  leadId: string,
  options?: { lock?: 'update' | 'share' },
): Promise<LeadRecord> {
  const lead = await store.leads.get(organizationId, leadId, options);
  if (!lead) throw leadNotFound(leadId);
  return lead;
}
