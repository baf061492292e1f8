import type { ProspectResponseEvent } from '@ocs/sdk/webhooks';

/** A `prospect_response` event as the service sends it, with the given idempotency key. */
export function event(idempotencyKey: string): ProspectResponseEvent {
  return {
    event: 'prospect_response',
    idempotency_key: idempotencyKey,
    sequence_lead_id: 'c4a7e2d9-5f3b-4c8a-a6e1-9d2b7f4c1e83',
    timestamp: '2026-11-04T09:12:44.123456+00:00',
    channel: 'email',
    sender: {
      email: { account_id: 'acc_em_7Hp2vL5n', platform_username: 'sam', email: 'sam@northwind-outreach.com' },
    },
    lead: {
      annual_revenue: null,
      company: 'Acme Robotics',
      email: 'maya.patel@acmerobotics.com',
      first_name: 'Maya',
      industry: null,
      last_name: 'Patel',
      linkedin_profile: null,
      title: 'VP of Sales',
      website: null,
      employee_count: null,
      custom_fields: {},
    },
    ai_response: { sentiment: 'positive', conversation_status: 'awaiting_prospect', agent_action: 'reply' },
    campaign: 'Q4 Founders Outreach',
    conversation_owner: 'service',
    prospect_message: 'Sounds interesting, send me a time.',
    variation: 'a',
  };
}
