/**
 * A `prospect_response` event built from the mock's state by the server's own builder
 * (`buildProspectResponse`, the one its delivery worker sends), so that one implementation
 * shapes the event: field order, `sender` and `lead`, `timestamp`, `idempotency_key`,
 * `conversation_owner`. The reply's `ai_response` comes from the server's classifier and
 * reply agent with the campaign's responder settings, as for a reply the service received.
 */
import {
  analyseReply,
  buildProspectResponse,
  builtInClassifier,
  conversationOwner,
  decideReply,
  defaultResponderSettings,
  type MemoryStore,
} from '@ocs/server';
import type { ProspectResponseEvent } from '../api-types.ts';

export type Channel = 'email' | 'linkedin';

/** What `buildEvent` needs: found by the trigger's defaults. */
export interface EventSource {
  organizationId: string;
  campaignId: string;
  leadId: string;
}

/** The reply the event carries; unset fields take the defaults. */
export interface EventReply {
  /** Default: email when the campaign sends email and the lead has an address, else LinkedIn. */
  channel?: Channel;
  /** Default: a positive reply naming the lead's company. Null: a reply without text. */
  message?: string | null;
}

export async function buildEvent(
  store: MemoryStore,
  source: EventSource,
  now: Date,
  reply: EventReply,
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
  const channel = reply.channel ?? defaultChannel(lead.email !== null, accounts);
  const message = reply.message === undefined ? defaultMessage(lead.company) : reply.message;
  const events = await store.activity.listForEnrolment(enrolment.id);
  const latestReply = events.filter((event) => event.kind === 'reply_received').at(-1);
  const settings =
    (await store.responders.get(campaign.id)) ?? defaultResponderSettings(campaign.id, campaign.organization_id);
  const aiResponse = decideReply({
    responderEnabled: campaign.responder_enabled,
    settings,
    analysis: await analyseReply(builtInClassifier, { message, channel }),
    message,
    channel,
    lead,
    previous: latestReply
      ? {
          conversation_status: latestReply.data.conversation_status ?? null,
          goal_status: latestReply.data.goal_status ?? null,
        }
      : null,
  });
  const { event } = await buildProspectResponse({
    enrolment: { id: enrolment.id, variation: enrolment.variation },
    campaign: { id: campaign.id, name: campaign.name },
    channel,
    lead,
    prospectMessage: message,
    senderAccounts: accounts,
    // A reply arrives on the account that last wrote to the lead on its channel.
    replyAccountId: [...events].reverse().find((event) => event.channel === channel && event.account_id !== null)
      ?.account_id,
    aiResponse,
    conversationOwner: conversationOwner(campaign.responder_enabled, aiResponse),
    receivedAt: now,
  });
  return event as ProspectResponseEvent;
}

/** Email when the campaign sends email and the lead has an address, else LinkedIn where it sends there. */
function defaultChannel(hasEmail: boolean, accounts: ReadonlyArray<{ platform: string }>): Channel {
  if (hasEmail && accounts.some((account) => account.platform === 'email')) return 'email';
  if (accounts.some((account) => account.platform === 'linkedin')) return 'linkedin';
  return hasEmail ? 'email' : 'linkedin';
}

/** A reply the classifier reads as positive. */
function defaultMessage(company: string | null): string {
  return `Hi, thanks for reaching out. Timing is good for ${company ?? 'us'}: happy to chat next week.`;
}
