/** The API's SenderAccount object from an account record and the campaigns sending from it. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { SenderAccountRecord } from '../store/records.ts';

export function accountView(record: SenderAccountRecord, campaignIds: string[]): Schemas['SenderAccount'] {
  return {
    id: record.id,
    platform: record.platform,
    label: record.label,
    status: record.status,
    email: record.email,
    platform_username: record.platform_username,
    daily_limit: record.daily_limit,
    email_auth: record.email_auth,
    campaign_ids: campaignIds,
    connected_at: toApiTime(record.connected_at),
  };
}
