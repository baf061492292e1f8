/**
 * `importLeads`: the batch form of `POST /leads` (`createLead` with `{ leads }`), typed as
 * the batch's answer. `createLead`'s own result type is the single form's (`201`/`200`), so
 * that code written for one lead keeps its types; this function is the batch's entry point.
 */
import type { OcsClient } from './client.ts';
import { createLead } from './generated/operations.ts';
import type { components } from './generated/openapi.ts';
import type { IdempotentCallOptions, ResultMeta } from './types.ts';

/** One lead of a batch: the body of the single form. */
export type LeadImportItem = components['schemas']['LeadInput'];
/** The batch's answer (`207`): one result per lead, in order, and the counts. */
export type LeadImportResult = components['schemas']['LeadBatchResult'] &
  ResultMeta & {
    /** The `Idempotency-Key` sent (yours or the generated one): retry with it to never create a lead twice. */
    readonly idempotencyKey: string;
  };

/**
 * Creates many leads in one request (as many as fit the 1 MB body limit), in one transaction.
 * Each lead gets its result in `results`, in order: `201` created, `200` same email as an
 * existing lead or an earlier one of the batch (left unchanged), `400` its `campaign_id`
 * is not a campaign of the organization. A `200` or `201` result names its lead by `lead_id`
 * (and its enrolment by `sequence_lead_id`), not by the lead's whole view, so the answer stays
 * a few hundred bytes per lead. A lead that does not match `LeadInput` refuses the
 * whole batch (`OcsBadRequestError` naming `body.leads[i]...`). An `Idempotency-Key` is sent
 * (`options.idempotencyKey`, or a generated one reused on every retry), so a retried batch
 * never creates a lead twice.
 *
 * @example
 * const { created, existing, results } = await importLeads(client, [
 *   { email: 'maya.patel@acmerobotics.com', campaign_id },
 *   { email: 'jonas.weber@brightlane.io', campaign_id },
 * ], { idempotencyKey: 'crm-sync-2026-11-04-part-1' });
 */
export async function importLeads(
  client: OcsClient,
  leads: readonly LeadImportItem[],
  options?: IdempotentCallOptions,
): Promise<LeadImportResult> {
  return (await createLead(client, { leads: [...leads] }, options)) as unknown as LeadImportResult;
}
