/**
 * Where messages leave the service. The engine hands each rendered message to a channel
 * inside the transaction that records its step as run, so the two commit together: the
 * built-in sandbox channel records the message in that transaction; a real email or
 * LinkedIn channel plugs in here by writing its own outbox row in `tx` and sending from a
 * worker after commit (never calling out while the transaction is open).
 */
import type { Channel } from '../domain/channels.ts';
import type { MessageStepType, SequenceStep } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { newId } from '../domain/ids.ts';

export interface OutboundMessage {
  organization_id: string;
  campaign_id: string;
  enrolment_id: string;
  lead_id: string;
  step: SequenceStep & { type: MessageStepType };
  channel: Channel;
  variation: 'a' | 'b' | null;
  account_id: string | null;
  /** Emails only. */
  subject: string | null;
  body: string;
  sent_at: string;
}

export interface OutboundChannel {
  send(message: OutboundMessage, tx: Store): Promise<void>;
}

/** Records every message instead of sending it (`GET /sandbox/campaigns/{id}/messages` lists them). */
export const sandboxChannel: OutboundChannel = {
  async send(message, tx) {
    await tx.messages.insert({
      id: newId(),
      organization_id: message.organization_id,
      campaign_id: message.campaign_id,
      enrolment_id: message.enrolment_id,
      lead_id: message.lead_id,
      step_id: message.step.id,
      step_type: message.step.type,
      channel: message.channel,
      variation: message.variation,
      account_id: message.account_id,
      subject: message.subject,
      body: message.body,
      sent_at: message.sent_at,
    });
  },
};
