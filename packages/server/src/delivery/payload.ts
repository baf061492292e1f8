/**
 * The `prospect_response` event (section 6): its fields, its exact bytes, its
 * `idempotency_key`, and whether a reply gets one at all. The bytes built here are what is
 * signed and sent on every attempt; retries never rebuild them.
 *
 * Field order is the order of the section 6 tables (event, idempotency_key,
 * sequence_lead_id, timestamp, channel, sender, lead, ai_response, campaign,
 * conversation_owner, prospect_message, variation), so the bytes are stable and read like
 * the documentation.
 *
 * `idempotency_key`: SHA-256 hex of the UTF-8 bytes of these lines joined with line feeds
 * (U+000A), as the OpenAPI document says:
 *
 *     <sequence_lead_id> LF <campaign id> LF <channel> LF <prospect_message>
 *
 * The encoding is unambiguous: the first three lines cannot contain a line feed (two UUIDs,
 * an enum; IDs are checked), so whatever the message holds, including line feeds, it is
 * everything after the third one. A null message hashes as the empty string (both mean "no
 * text"). A redelivery (section 6 rule 4: the sequence lead's second event, a positive
 * reply after non-positive ones) writes its delivery number on the channel line
 * (`email#2`): with the same message text it must still get a new key, and since no channel
 * contains `#`, no first delivery can produce that pre-image. First deliveries hash exactly
 * the four documented lines.
 */
import type { AiResponse } from '../domain/replies/agent.ts';
import { responderAgentVersion } from '../domain/responder.ts';
import { sha256Hex } from '../domain/hash.ts';
import type { ReplyChannel, Sentiment } from '../domain/replies/classifier.ts';
import type { Schemas } from '../openapi/types.ts';
import type { LeadRecord, SenderAccountRecord } from '../store/records.ts';

export type ProspectResponseEvent = Schemas['ProspectResponseEvent'];

export type EventLeadSource = Pick<
  LeadRecord,
  | 'annual_revenue'
  | 'company'
  | 'email'
  | 'first_name'
  | 'industry'
  | 'last_name'
  | 'linkedin_profile'
  | 'title'
  | 'website'
  | 'employee_count'
  | 'custom_fields'
  | 'deleted_at'
>;

export type EventSenderSource = Pick<SenderAccountRecord, 'id' | 'platform' | 'email' | 'platform_username'>;

export interface ProspectResponseInput {
  /** The sequence lead (enrolment) that replied, and its arm. */
  enrolment: { id: string; variation: 'a' | 'b' | null };
  campaign: { id: string; name: string };
  channel: ReplyChannel;
  /** The lead; null, or `deleted_at` set, when it was deleted: personal data is then left out. */
  lead: EventLeadSource | null;
  /** The reply as received. */
  prospectMessage: string | null;
  /** The accounts assigned to the campaign, in its order; null when they could not be looked up. */
  senderAccounts: readonly EventSenderSource[] | null;
  /** The account the reply arrived on: preferred as the sender of its channel. */
  replyAccountId?: string | null;
  aiResponse: AiResponse;
  /** `service`, `lp_responder`...; null or absent when the conversation has no owner (the key is then left out). */
  conversationOwner?: string | null;
  receivedAt: Date;
  /** Which event of this sequence lead this is: 1 (default) for the first, 2 for a redelivery. */
  deliveryNumber?: number;
}

export interface BuiltEvent {
  event: ProspectResponseEvent;
  /** UTF-8 JSON of `event`: the exact bytes signed and sent, on every attempt. */
  body: Uint8Array;
  idempotency_key: string;
}

export async function buildProspectResponse(input: ProspectResponseInput): Promise<BuiltEvent> {
  const erased = input.lead === null || input.lead.deleted_at !== null;
  const idempotency_key = await prospectResponseKey({
    sequenceLeadId: input.enrolment.id,
    campaignId: input.campaign.id,
    channel: input.channel,
    prospectMessage: input.prospectMessage,
    deliveryNumber: input.deliveryNumber ?? 1,
  });
  const event: ProspectResponseEvent = {
    event: 'prospect_response',
    idempotency_key,
    sequence_lead_id: input.enrolment.id,
    timestamp: eventTimestamp(input.receivedAt),
    channel: input.channel,
    sender: eventSender(input.senderAccounts, input.replyAccountId ?? null),
    lead: eventLead(erased ? null : input.lead),
    ai_response: orderedAiResponse(input.aiResponse, erased),
    campaign: input.campaign.name,
    ...(input.conversationOwner == null ? {} : { conversation_owner: input.conversationOwner }),
    prospect_message: erased ? null : input.prospectMessage,
    variation: input.enrolment.variation,
  };
  return { event, body: new TextEncoder().encode(JSON.stringify(event)), idempotency_key };
}

/**
 * The stored body of an event whose lead was deleted (erasure, issue 10): the same event as
 * `buildProspectResponse` makes for an erased lead, that is `lead` with every field null
 * (`custom_fields` `{}`), no `prospect_message`, and no free text of `ai_response`; every
 * other field, and the field order, as they were. A body that is not an event object (it
 * never is) becomes `{}`.
 */
export function erasedEventBody(body: string): string {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return '{}';
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return '{}';
  const erased = event as Record<string, unknown>;
  if ('lead' in erased) erased.lead = eventLead(null);
  if ('prospect_message' in erased) erased.prospect_message = null;
  const ai = erased.ai_response;
  if (ai !== null && typeof ai === 'object' && !Array.isArray(ai)) {
    const response = ai as Record<string, unknown>;
    if ('responder_message' in response) response.responder_message = null;
    if ('sdr_brief' in response) response.sdr_brief = null;
  }
  return JSON.stringify(erased);
}

/** The `idempotency_key`; see the file header for the encoding. */
export async function prospectResponseKey(parts: {
  sequenceLeadId: string;
  campaignId: string;
  channel: ReplyChannel;
  prospectMessage: string | null;
  deliveryNumber?: number;
}): Promise<string> {
  const deliveryNumber = parts.deliveryNumber ?? 1;
  if (!Number.isInteger(deliveryNumber) || deliveryNumber < 1) {
    throw new RangeError(`deliveryNumber must be a positive integer, got ${deliveryNumber}`);
  }
  for (const id of [parts.sequenceLeadId, parts.campaignId]) {
    // A line feed in an ID would make the encoding ambiguous.
    if (/[\n\r]/.test(id))
      throw new RangeError(`An ID of the idempotency key holds a line break: ${JSON.stringify(id)}`);
  }
  const channelLine = deliveryNumber === 1 ? parts.channel : `${parts.channel}#${deliveryNumber}`;
  return sha256Hex([parts.sequenceLeadId, parts.campaignId, channelLine, parts.prospectMessage ?? ''].join('\n'));
}

/** `2026-11-22T04:16:35.123000+00:00`: UTC, microseconds (a `Date` has milliseconds), `+00:00`. */
export function eventTimestamp(at: Date): string {
  const iso = at.toISOString(); // throws on an invalid date
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(iso)) throw new RangeError(`Year out of range: ${iso}`);
  return `${iso.slice(0, -1)}000+00:00`;
}

/**
 * `sender`, keyed by channel: for each channel, the account the reply arrived on if it is of
 * that channel, otherwise the first assigned account of that channel; a channel with no
 * assigned account is left out; `{}` when the accounts could not be looked up. An email
 * account with neither an address nor a username is `null` (the three strings are required).
 */
export function eventSender(
  accounts: readonly EventSenderSource[] | null,
  replyAccountId: string | null,
): ProspectResponseEvent['sender'] {
  if (accounts === null) return {};
  const pick = (platform: ReplyChannel) =>
    accounts.find((account) => account.platform === platform && account.id === replyAccountId) ??
    accounts.find((account) => account.platform === platform);
  const sender: ProspectResponseEvent['sender'] = {};
  const email = pick('email');
  if (email) {
    const address = email.email ?? email.platform_username;
    const username = email.platform_username ?? email.email;
    sender.email = address && username ? { account_id: email.id, platform_username: username, email: address } : null;
  }
  const linkedin = pick('linkedin');
  if (linkedin) {
    sender.linkedin =
      linkedin.platform_username === null
        ? { account_id: linkedin.id }
        : { account_id: linkedin.id, platform_username: linkedin.platform_username };
  }
  return sender;
}

/** `lead`: every field present, null without a value; all null (and `custom_fields` `{}`) for a deleted lead. */
export function eventLead(lead: EventLeadSource | null): ProspectResponseEvent['lead'] {
  return {
    annual_revenue: lead?.annual_revenue ?? null,
    company: lead?.company ?? null,
    email: lead?.email ?? null,
    first_name: lead?.first_name ?? null,
    industry: lead?.industry ?? null,
    last_name: lead?.last_name ?? null,
    linkedin_profile: lead?.linkedin_profile ?? null,
    title: lead?.title ?? null,
    website: lead?.website ?? null,
    employee_count: lead?.employee_count ?? null,
    custom_fields: lead ? { ...lead.custom_fields } : {},
  };
}

/**
 * `ai_response` in the order of section 6, whatever order the object came in. For an erased
 * lead the free texts (`responder_message`, `sdr_brief`) are left out too: they quote the
 * lead's name and words.
 */
function orderedAiResponse(response: AiResponse, erased: boolean): AiResponse {
  return {
    agent_action: response.agent_action,
    agent_version: response.agent_version,
    asset_delivered: response.asset_delivered,
    asset_url: response.asset_url,
    complete: response.complete,
    conversation_status: response.conversation_status,
    escalation_reason: response.escalation_reason,
    first_message_mode: response.first_message_mode,
    goal: response.goal,
    goal_status: response.goal_status,
    out_of_office: response.out_of_office,
    responder_message: erased ? null : response.responder_message,
    sdr_brief: erased ? null : response.sdr_brief,
    sentiment: response.sentiment,
  };
}

/**
 * `conversation_owner`: `service` when the service's own responder handles the conversation
 * (NOTES.md), that is the responder is enabled, the agent analysed this reply, and no person
 * has taken the conversation over; null otherwise, and the key is then left out ("present
 * only when the conversation has an owner").
 */
export function conversationOwner(responderEnabled: boolean, response: AiResponse): 'service' | null {
  return responderEnabled &&
    response.agent_version === responderAgentVersion &&
    response.conversation_status !== 'human_owned'
    ? 'service'
    : null;
}

/** What `shouldDeliver` reads of a reply: its classification (null fields when not analysed). */
export interface DeliveredReply {
  sentiment: Sentiment | null;
  out_of_office: boolean | null;
}

/** Positive as analytics count it: an out-of-office reply is never positive (domain/activity.ts). */
const isPositive = (reply: DeliveredReply) => reply.sentiment === 'positive' && reply.out_of_office !== true;

/**
 * Section 6 rule 4, per sequence lead. `previous` are the replies of this sequence lead that
 * already got an event (written to the outbox, whatever became of its delivery: a receiver
 * may have processed an attempt that then timed out). Deliver when there is none; otherwise
 * only when this reply is positive and none of them was (a later positive reply after
 * non-positive ones). So a sequence lead gets at most two events: its first reply's, and
 * its first positive reply's when that came later. A not-analysed reply is non-positive.
 */
export function shouldDeliver(previous: readonly DeliveredReply[], reply: DeliveredReply): boolean {
  if (previous.length === 0) return true;
  return isPositive(reply) && !previous.some(isPositive);
}

/** The `deliveryNumber` of the event a delivered reply gets, after `previous` delivered ones. */
export const nextDeliveryNumber = (previous: readonly DeliveredReply[]) => previous.length + 1;
