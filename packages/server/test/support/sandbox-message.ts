/** A sandbox message record as the engine writes one for an email step, for store and API tests. */
import type { SandboxMessageRecord } from '../../src/store/records.ts';

type Where = Pick<
  SandboxMessageRecord,
  'id' | 'organization_id' | 'campaign_id' | 'enrolment_id' | 'lead_id' | 'sent_at'
>;

/** Step 1's email to the lead of `where`, with `Hello` / `Hi` unless `fields` says otherwise. */
export function sandboxMessage(where: Where, fields: Partial<SandboxMessageRecord> = {}): SandboxMessageRecord {
  return {
    ...where,
    step_id: 1,
    step_type: 'email',
    channel: 'email',
    variation: null,
    account_id: null,
    subject: 'Hello',
    body: 'Hi',
    ...fields,
  };
}
