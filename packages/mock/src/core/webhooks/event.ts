/**
 * A `prospect_response` event built from the mock's state: the campaign, the lead and its
 * enrolment, the campaign's sender accounts, shaped as the document's `ProspectResponseEvent`.
 *
 * EXTENSION POINT (issue 5, the campaign engine): when the server builds this event itself
 * for delivery, `buildEvent` should call the server's builder, so that one implementation
 * shapes the event; the defaults for the reply (`defaultReply`) then come from the engine's
 * classifier and reply agent.
 */
import type { MemoryStore } from '@ocs/server';
import type { ProspectResponseEvent } from '../api-types.ts';

export type Channel = 'email' | 'linkedin';

/** What `buildEvent` needs: found by `findEnrolment`. */
export interface EventSource {
  organizationId: string;
  campaignId: string;
  leadId: string;
}

export async function buildEvent(
  store: MemoryStore,
  source: EventSource,
  now: Date,
  channel: Channel | undefined,
): Promise<ProspectResponseEvent> {
  const campaign = await store.campaigns.get(source.organizationId, source.campaignId);
  const lead = await store.leads.get(source.organizationId, source.leadId);
  const enrolment = await store.enrolments.find(source.campaignId, source.leadId);
  if (!campaign || !lead || !enrolment) {
    throw new Error(
      `@ocs/mock: lead ${source.leadId} is not enrolled in campaign ${source.campaignId}; enrol it (POST /v1/leads with campaign_id) first.`,
    );
  }
  const accounts = await store.accounts.getMany(source.organizationId, campaign.enabled_accounts);
  const sender: ProspectResponseEvent['sender'] = {};
  for (const account of accounts) {
    // The document marks the email sender's fields required strings, the LinkedIn one's not.
    if (account.platform === 'email' && !sender.email) {
      const email = account.email ?? account.platform_username ?? '';
      sender.email = { account_id: account.id, platform_username: account.platform_username ?? email, email };
    } else if (account.platform === 'linkedin' && !sender.linkedin) {
      sender.linkedin = {
        account_id: account.id,
        ...(account.platform_username ? { platform_username: account.platform_username } : {}),
      };
    }
  }
  const firstName = lead.first_name ?? 'there';
  return {
    event: 'prospect_response',
    // Filled in by the trigger, over the final fields (overrides included).
    idempotency_key: '',
    sequence_lead_id: enrolment.id,
    timestamp: apiTimestamp(now),
    channel: channel ?? defaultChannel(lead.email !== null, sender),
    sender,
    lead: {
      annual_revenue: lead.annual_revenue,
      company: lead.company,
      email: lead.email,
      first_name: lead.first_name,
      industry: lead.industry,
      last_name: lead.last_name,
      linkedin_profile: lead.linkedin_profile,
      title: lead.title,
      website: lead.website,
      employee_count: lead.employee_count,
      custom_fields: lead.custom_fields ?? {},
    },
    ai_response: defaultReply(firstName, lead.company),
    campaign: campaign.name,
    conversation_owner: 'service',
    prospect_message: `Hi, thanks for reaching out. Timing is good for ${lead.company ?? 'us'}: happy to chat next week.`,
    variation: enrolment.variation,
  };
}

/** Email when the campaign sends email and the lead has an address, else LinkedIn where it sends there. */
function defaultChannel(hasEmail: boolean, sender: ProspectResponseEvent['sender']): Channel {
  if (hasEmail && sender.email) return 'email';
  if (sender.linkedin) return 'linkedin';
  return hasEmail ? 'email' : 'linkedin';
}

/** A positive reply the agent answered with a booking link (the document's first example). */
function defaultReply(firstName: string, company: string | null): ProspectResponseEvent['ai_response'] {
  return {
    agent_action: 'reply',
    agent_version: 2,
    asset_delivered: null,
    asset_url: null,
    complete: false,
    conversation_status: 'awaiting_prospect',
    escalation_reason: null,
    first_message_mode: null,
    goal: 'Book a 20-minute intro call',
    goal_status: 'link_sent',
    out_of_office: false,
    responder_message: `Great to hear, ${firstName}! Here is my calendar, pick any slot that suits you next week.`,
    sdr_brief: `${firstName}${company ? ` (${company})` : ''} is open to a call next week. Booking link sent.`,
    sentiment: 'positive',
  };
}

/** UTC with microseconds and `+00:00`, as the document requires (`2026-11-04T09:27:51.083000+00:00`). */
export function apiTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/**
 * The event's `idempotency_key`: SHA-256 hex of the sequence lead, the campaign ID, the
 * channel and the prospect message, joined with line feeds, as UTF-8 (the document's rule).
 */
export async function idempotencyKey(
  event: Pick<ProspectResponseEvent, 'sequence_lead_id' | 'channel' | 'prospect_message'>,
  campaignId: string,
): Promise<string> {
  const text = [event.sequence_lead_id, campaignId, event.channel, event.prospect_message ?? ''].join('\n');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
