/**
 * Tag Sandbox: simulated replies (`simulateReply`) and the operator's view of every
 * `prospect_response` delivery with its attempts (`listSandboxDeliveries`).
 */
import { toApiTime } from '../domain/clock.ts';
import { receiveReply } from '../engine/replies.ts';
import { findSandboxLead } from '../engine/sandbox-lead.ts';
import type { DeliveryWithAttempts } from '../store/types.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { sandboxPageTextBytes } from '../store/page-bytes.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';
import { sandboxClock } from './sandbox-guard.ts';

const apiTime = (iso: string) => toApiTime(new Date(iso).toISOString());

export const sandboxReplyHandlers: PartialHandlers = {
  async simulateReply({ path, body, auth }, services) {
    const clock = sandboxClock(services);
    const found = await findSandboxLead(services.store, auth.organization.id, path.campaign_id, body.lead_id);
    const at = clock.now();
    const received = await receiveReply(services, found, { channel: body.channel, message: body.message }, at);
    // The worker of a running server attempts it at once; elsewhere the next round does.
    if (received.delivery) services.engine.deliveries.notify();
    const { aiResponse, delivery } = received;
    return {
      status: 201,
      body: {
        success: true,
        message: delivery ? 'Reply received; prospect_response queued for delivery' : 'Reply received; not delivered',
        reply: {
          sequence_lead_id: found.enrolment.id,
          lead_id: found.lead.id,
          campaign_id: found.campaign.id,
          channel: body.channel,
          prospect_message: body.message,
          received_at: apiTime(received.event.occurred_at),
          sentiment: aiResponse.sentiment,
          out_of_office: aiResponse.out_of_office,
          ai_response: aiResponse,
          delivery: delivery
            ? { delivery_id: delivery.id, idempotency_key: delivery.idempotency_key, status: delivery.status }
            : null,
          not_delivered_reason: received.notDeliveredReason,
        },
      },
    };
  },

  async listSandboxDeliveries({ path, query, auth }, services) {
    sandboxClock(services);
    const campaign = await findCampaign(services.store, auth.organization.id, path.campaign_id);
    const page = pageRequest(query, 100);
    // Bounded by size too: an event carries the lead's custom fields, up to a megabyte
    // (decision 0006, "Sandbox pages bounded by size").
    const result = await services.store.deliveries.listForCampaign(campaign.id, {
      ...page,
      maxTextBytes: sandboxPageTextBytes,
    });
    const deliveries = { ...result, items: result.items.map(deliveryView) };
    return { status: 200, body: pageEnvelope('deliveries', deliveries, page, 'Sandbox deliveries retrieved') };
  },
};

function deliveryView(delivery: DeliveryWithAttempts) {
  return {
    delivery_id: delivery.id,
    idempotency_key: delivery.idempotency_key,
    sequence_lead_id: delivery.enrolment_id,
    lead_id: delivery.lead_id,
    channel: delivery.channel,
    status: delivery.status,
    attempts_made: delivery.attempts_made,
    created_at: apiTime(delivery.created_at),
    next_attempt_at: delivery.next_attempt_at === null ? null : apiTime(delivery.next_attempt_at),
    payload: JSON.parse(delivery.body),
    attempts: delivery.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      webhook_id: attempt.webhook_id,
      webhook_url: attempt.url,
      started_at: apiTime(attempt.started_at),
      ok: attempt.ok,
      status: attempt.status,
      duration_ms: Math.round(attempt.duration_ms),
      error: attempt.error,
    })),
  };
}
