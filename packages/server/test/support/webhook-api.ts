/** Shorthands for the webhook API tests: a campaign to attach webhooks to, and typed calls. */
import type { Clock } from '../../src/domain/clock.ts';
import type { TestApi } from './api.ts';

/** A clock one second further on each request, so "oldest first" never depends on a tie. */
export function steppingClock(start = Date.UTC(2026, 10, 6, 9)): Clock {
  let now = start;
  return { now: () => new Date((now += 1000)) };
}

export interface Registration {
  success: boolean;
  message: string;
  webhook_id: string;
  created: boolean | null;
  replaced: boolean | null;
  secret?: string | null;
}

export interface WebhookBody {
  webhook_id: string;
  webhook_url: string;
  enabled: boolean;
  has_secret: boolean;
  created_at: string;
  updated_at: string;
}

export interface ErrorAnswer {
  error: string;
  message: string;
  details?: { webhook_id?: string; errors?: Array<{ field: string; type: string }> };
}

export const hookA = 'https://hooks.northwind-outreach.com/ocs/prospect-response';
export const hookB = 'https://crm.northwind-outreach.com/integrations/ocs/replies';
export const hookC = 'https://hooks.example.com/third';

export async function newCampaign(api: TestApi, name = 'Q4 Founders Outreach'): Promise<string> {
  const created = await api.call<{ campaign_id: string }>('POST', '/v1/campaigns', { body: { name } });
  if (created.status !== 201) throw new Error(`campaign not created: ${JSON.stringify(created.body)}`);
  return created.body.campaign_id;
}

export function register(api: TestApi, campaignId: string, body: Record<string, unknown>) {
  return api.call<Registration & ErrorAnswer>('POST', `/v1/campaigns/${campaignId}/webhooks`, { body });
}

export async function listHooks(api: TestApi, campaignId: string): Promise<WebhookBody[]> {
  const answer = await api.call<{ webhooks: WebhookBody[] }>('GET', `/v1/campaigns/${campaignId}/webhooks`);
  return answer.body.webhooks;
}
