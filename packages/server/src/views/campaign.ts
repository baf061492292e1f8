/** The API's Campaign object (section 2) from a campaign record. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { CampaignRecord } from '../store/records.ts';

export function campaignView(record: CampaignRecord): Schemas['Campaign'] {
  return {
    id: record.id,
    name: record.name,
    is_active: record.is_active,
    created_at: toApiTime(record.created_at),
    updated_at: toApiTime(record.updated_at),
    ab_testing_enabled: record.ab_testing_enabled,
    custom_fields: record.custom_fields as Schemas['Campaign']['custom_fields'],
    description: record.description,
    enabled_accounts: record.enabled_accounts,
    lead_database_filters: record.lead_database_filters,
    refill_policy: record.refill_policy,
    responder_enabled: record.responder_enabled,
    sequence: record.sequence,
    traffic_split: record.traffic_split,
  };
}
