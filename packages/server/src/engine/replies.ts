/**
 * A prospect's reply arriving (section 6): analysed by the classifier, handled by the reply
 * agent per the campaign's responder settings, recorded (it pauses the lead's sequence), and
 * turned into a `prospect_response` event for the campaign's enabled webhooks.
 *
 * Durable: the reply's event and the delivery are written in one transaction, so a reply is
 * never recorded without its delivery nor the other way round; the delivery worker sends it
 * after commit. Only the classifier runs before the transaction (a model provider may be slow).
 */
import { builtInClassifier, type ReplyClassifier } from '../domain/replies/classifier.ts';
import { analyseReply } from '../domain/replies/analysis.ts';
import { type AiResponse, decideReply, impliedBooking } from '../domain/replies/agent.ts';
import { defaultResponderSettings } from '../domain/responder.ts';
import type { Channel } from '../domain/channels.ts';
import { newId } from '../domain/ids.ts';
import {
  buildProspectResponse,
  conversationOwner,
  type DeliveredReply,
  nextDeliveryNumber,
  shouldDeliver,
} from '../delivery/payload.ts';
import type { ActivityEventRecord, DeliveryRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { leadNotFound } from '../lookups/lead.ts';
import { lastContact, leadBooking, leadEvent, notEnrolled, type SandboxLead } from './sandbox-lead.ts';

export interface ReceivedReply {
  event: ActivityEventRecord;
  aiResponse: AiResponse;
  /** The delivery enqueued for it (pending: attempted after the transaction commits). */
  delivery: PendingDelivery | null;
  /** Why no event was sent (`delivery` null): no enabled webhook, or a repeat reply. */
  notDeliveredReason: string | null;
}

type PendingDelivery = DeliveryRecord & { status: 'pending' };

export const notDeliveredReasons = {
  repeat: 'repeat reply: this lead already got a prospect_response event, and this reply is not a first positive one',
  noWebhook: 'no enabled webhook on the campaign',
} as const;

export async function receiveReply(
  services: { store: Store; classifier?: ReplyClassifier },
  found: SandboxLead,
  reply: { channel: Channel; message: string },
  at: Date,
): Promise<ReceivedReply> {
  const { store } = services;
  const { campaign, lead } = found;
  const contact = lastContact(found, reply.channel);
  // Only the classifier runs before the transaction: a model provider may be slow.
  const analysis = await analyseReply(services.classifier ?? builtInClassifier, reply);
  const settings =
    (await store.responders.get(campaign.id)) ?? defaultResponderSettings(campaign.id, campaign.organization_id);
  const receivedAt = at.toISOString();
  return store.transaction(async (tx) => {
    // The lead's row is locked, and its replies read again under the lock: two replies of
    // one lead at once are decided one after the other (section 6 rule 4 holds), and a step
    // running meanwhile sees the pause (run-steps.ts takes the same lock).
    const enrolment = await tx.enrolments.find(campaign.id, lead.id, { forUpdate: true });
    if (!enrolment || enrolment.id !== found.enrolment.id) throw notEnrolled(found);
    // An erasure takes this lock too: a lead erased since it was read gets no copy of its reply.
    if (!(await tx.leads.get(campaign.organization_id, lead.id))) throw leadNotFound(lead.id);
    const replies = await tx.activity.listForEnrolment(enrolment.id, { kinds: ['reply_received'] });
    const latest = replies.at(-1);
    const aiResponse = decideReply({
      responderEnabled: campaign.responder_enabled,
      settings,
      analysis,
      message: reply.message,
      channel: reply.channel,
      lead,
      previous: latest
        ? { conversation_status: latest.data.conversation_status ?? null, goal_status: latest.data.goal_status ?? null }
        : null,
    });
    const delivered: DeliveredReply[] = replies
      .filter((e) => typeof e.data.delivery_id === 'string')
      .map((e) => ({ sentiment: e.data.sentiment ?? null, out_of_office: e.data.out_of_office ?? null }));
    const classified: DeliveredReply = { sentiment: aiResponse.sentiment, out_of_office: aiResponse.out_of_office };
    const webhooks = await tx.webhooks.listEnabled(campaign.id);
    let notDeliveredReason: string | null = null;
    if (!shouldDeliver(delivered, classified)) notDeliveredReason = notDeliveredReasons.repeat;
    else if (webhooks.length === 0) notDeliveredReason = notDeliveredReasons.noWebhook;

    let delivery: PendingDelivery | null = null;
    if (notDeliveredReason === null) {
      const built = await buildProspectResponse({
        enrolment: { id: enrolment.id, variation: enrolment.variation },
        campaign: { id: campaign.id, name: campaign.name },
        channel: reply.channel,
        lead,
        prospectMessage: reply.message,
        senderAccounts: await tx.accounts.getMany(campaign.organization_id, campaign.enabled_accounts),
        replyAccountId: contact.account_id,
        aiResponse,
        conversationOwner: conversationOwner(campaign.responder_enabled, aiResponse),
        receivedAt: at,
        deliveryNumber: nextDeliveryNumber(delivered),
      });
      delivery = {
        id: newId(),
        organization_id: campaign.organization_id,
        campaign_id: campaign.id,
        enrolment_id: enrolment.id,
        lead_id: lead.id,
        channel: reply.channel,
        idempotency_key: built.idempotency_key,
        body: new TextDecoder().decode(built.body),
        status: 'pending',
        attempts_made: 0,
        created_at: receivedAt,
        // Section 6: the first attempt is made at once.
        next_attempt_at: receivedAt,
        delivered_at: null,
        failed_at: null,
        last_error: null,
        lease_owner: null,
        lease_until: null,
        cancelled_at: null,
      };
    }

    // The reply arrives on the account the lead was last written from on that channel.
    const event = leadEvent(found, {
      kind: 'reply_received',
      channel: reply.channel,
      account_id: contact.account_id,
      occurred_at: receivedAt,
      data: {
        sentiment: aiResponse.sentiment,
        out_of_office: aiResponse.out_of_office,
        message: reply.message,
        conversation_status: aiResponse.conversation_status,
        goal_status: aiResponse.goal_status,
        delivery_id: delivery?.id ?? null,
      },
    });
    await tx.activity.insert(event);
    // The first reply pauses the sequence (sequence-progress.ts stops at it too).
    if (enrolment.status !== 'completed') await tx.enrolments.update(enrolment.id, { status: 'paused' });
    if (delivery) await tx.deliveries.enqueue(delivery);
    const booking = impliedBooking(aiResponse);
    if (booking) await tx.bookings.insert(leadBooking(found, receivedAt, booking));
    return { event, aiResponse, delivery, notDeliveredReason };
  });
}
