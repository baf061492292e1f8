/** The API's Webhook object from a record: never the secret itself, only whether there is one. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { WebhookRecord } from '../store/records.ts';

export function webhookView(record: WebhookRecord): Schemas['Webhook'] {
  return {
    webhook_id: record.id,
    webhook_url: record.url,
    enabled: record.enabled,
    has_secret: record.secret !== null,
    created_at: toApiTime(record.created_at),
    updated_at: toApiTime(record.updated_at),
  };
}
