/**
 * Tag Sandbox: the simulation operations of sandbox mode. The clock and the engine's round
 * (`advanceSandboxClock`), engagement (`simulateEngagement`) and what the sandbox channel
 * recorded (`listSandboxMessages`). Replies and deliveries are in `sandbox-replies.ts`.
 */
import { ApiError } from '../http/api-error.ts';
import { recordEngagement } from '../engine/engagement.ts';
import { findSandboxLead } from '../engine/sandbox-lead.ts';
import { toApiTime } from '../domain/clock.ts';
import { bookingView } from '../views/booking.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { sandboxPageTextBytes } from '../store/page-bytes.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';
import { clockView, sandboxClock } from './sandbox-guard.ts';

const secondMs = 1000;
const dayMs = 86_400_000;

export const sandboxHandlers: PartialHandlers = {
  async getSandboxClock(_request, services) {
    const clock = sandboxClock(services);
    return { status: 200, body: { success: true, message: 'Sandbox clock retrieved', clock: clockView(clock) } };
  },

  async advanceSandboxClock({ body }, services) {
    const clock = sandboxClock(services);
    // Worked out from the clock as the engine's advance finds it: caught up with the store
    // (another server may have advanced it) and after the advances queued before this one.
    const ran = await services.engine.advanceTo((current) => {
      const now = current.getTime();
      if (body.to === undefined) return new Date(now + (body.seconds ?? 0) * secondMs + (body.days ?? 0) * dayMs);
      const target = Date.parse(body.to);
      if (target < now) {
        throw new ApiError(
          400,
          'CLOCK_BACKWARDS',
          `The sandbox clock only moves forward: ${body.to} is before its current time ${clockView(clock).now}.`,
        );
      }
      return new Date(target);
    });
    return {
      status: 200,
      body: { success: true, message: 'Sandbox clock advanced', clock: clockView(clock), ran },
    };
  },

  async simulateEngagement({ path, body, auth }, services) {
    const clock = sandboxClock(services);
    const { store } = services;
    const at = clock.now().toISOString();
    const { found, booking } = await store.transaction(async (tx) => {
      const found = await findSandboxLead(tx, auth.organization.id, path.campaign_id, body.lead_id);
      const { booking } = await recordEngagement(tx, found, body, at);
      return { found, booking };
    });
    return {
      status: 201,
      body: {
        success: true,
        message: 'Engagement recorded',
        engagement: {
          kind: body.kind,
          lead_id: found.lead.id,
          sequence_lead_id: found.enrolment.id,
          occurred_at: toApiTime(at),
          booking: booking ? bookingView(booking, found.lead) : null,
        },
      },
    };
  },

  async listSandboxMessages({ path, query, auth }, services) {
    sandboxClock(services);
    const campaign = await findCampaign(services.store, auth.organization.id, path.campaign_id);
    const page = pageRequest(query, 100);
    // Bounded by size too: a message's text may run to hundreds of thousands of characters
    // (decision 0006, "Sandbox pages bounded by size"). The envelope's count and has_more say
    // where the page stopped.
    const result = await services.store.messages.listForCampaign(campaign.id, {
      ...page,
      maxTextBytes: sandboxPageTextBytes,
      ...(query.lead_id === undefined ? {} : { lead_id: query.lead_id }),
    });
    const messages = {
      ...result,
      items: result.items.map((m) => ({
        message_id: m.id,
        sequence_lead_id: m.enrolment_id,
        lead_id: m.lead_id,
        step_id: m.step_id,
        step_type: m.step_type,
        channel: m.channel,
        variation: m.variation,
        sender_account_id: m.account_id,
        subject: m.subject,
        body: m.body,
        sent_at: toApiTime(new Date(m.sent_at).toISOString()),
      })),
    };
    return { status: 200, body: pageEnvelope('messages', messages, page, 'Sandbox messages retrieved') };
  },
};
