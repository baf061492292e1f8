/**
 * The reply agent (the appointment-setter, `agent_version` 2): what it does with one reply,
 * as the `ai_response` object of the `prospect_response` event (section 6).
 *
 * Not analysed (no text, or the classification failed; see analysis.ts): every field is
 * null except `goal`, which gives the reason (`skipped: no reply text`). `agent_version` is
 * null too, not absent: the OpenAPI document says the service always sends every field, null
 * when it has no value, and only legacy payloads lack `agent_version`.
 *
 * Analysed: `agent_version` 2, `sentiment` and `out_of_office` from the classification,
 * `goal` the campaign goal (the settings' `goal`), asset fields null (no asset-first
 * campaigns here), `complete` true exactly when `conversation_status` starts with `closed_`.
 * The first row that applies decides:
 *
 * | # | situation                                    | agent_action | conversation_status | goal_status           | responder_message |
 * | - | -------------------------------------------- | ------------ | ------------------- | --------------------- | ----------------- |
 * | 1 | responder disabled                           | skip         | needs_human         | kept                  | null              |
 * | 2 | a person owns the conversation (human_owned) | skip         | human_owned         | kept                  | null              |
 * | 3 | out of office, handle_out_of_office          | wait         | awaiting_prospect   | kept                  | null              |
 * | 4 | out of office, not handled                   | skip         | awaiting_prospect   | kept                  | null              |
 * | 5 | negative, escalate_negative                  | escalate     | closed_escalated    | declined              | null              |
 * | 6 | negative                                     | close        | closed_lost         | declined              | null              |
 * | 7 | says booked, after link_sent or soft_commit  | close        | closed_won          | confirmed             | null              |
 * | 8 | copilot (positive or neutral)                | escalate     | needs_human         | soft_commit / kept *  | null              |
 * | 9 | autopilot, positive, booking_url             | reply        | awaiting_prospect   | link_sent             | the booking link  |
 * | 10| autopilot, positive, no booking_url          | reply        | awaiting_prospect   | soft_commit           | asks for a time   |
 * | 11| autopilot, neutral                           | reply        | awaiting_prospect   | kept                  | offers a call     |
 *
 * (*) soft_commit for a positive reply, kept for a neutral one.
 *
 * "kept" is the previous reply's `goal_status` for this sequence lead, or `not_sent`; a
 * positive reply never moves `goal_status` back (link_sent stays link_sent). Choices made:
 * - Row 1 follows `ResponderSettings`: with the responder off, replies are still classified
 *   but go to a person; `escalation_reason` says why. The service's v2 rules made that
 *   decision, so `agent_version` is 2 and the `complete` rule holds.
 * - Row 5 is `closed_escalated`, not `needs_human`: the conversation is over for the agent
 *   (it must not answer again) and the person it went to owns what follows.
 * - Row 8: in copilot mode the agent drafts and hands over; the draft is in `sdr_brief`.
 * - `nudge` is never the answer to a reply: it is the later follow-up the scheduler sends
 *   after a `wait` (row 3) or after silence.
 *
 * A reply books nothing by itself: meetings are calendar events (engagement events, not
 * replies). The one booking a reply implies is row 7, a confirmation by the agent (see
 * `impliedBooking`).
 */
import type { ResponderSettingsRecord } from '../../store/records.ts';
import { responderAgentVersion } from '../responder.ts';
import { type BriefLead, replySummary, responderTexts } from './agent-texts.ts';
import type { ReplyAnalysis } from './analysis.ts';
import { saysBooked } from './booking-confirmation.ts';
import type { ReplyChannel, Sentiment } from './classifier.ts';

export type AgentAction = 'reply' | 'wait' | 'nudge' | 'escalate' | 'close' | 'skip';
export type ConversationStatus =
  | 'awaiting_prospect'
  | 'needs_human'
  | 'human_owned'
  | 'closed_won'
  | 'closed_lost'
  | 'closed_no_response'
  | 'closed_escalated'
  | 'awaiting_followup';
export type GoalStatus = 'not_sent' | 'link_sent' | 'soft_commit' | 'confirmed' | 'declined';

/**
 * `ai_response` of the event: every field always present, in the order of section 6. A type
 * (not an interface) so that it is assignable to the document's open object type.
 */
export type AiResponse = {
  agent_action: AgentAction | null;
  agent_version: number | null;
  asset_delivered: boolean | null;
  asset_url: string | null;
  complete: boolean | null;
  conversation_status: ConversationStatus | null;
  escalation_reason: string | null;
  first_message_mode: string | null;
  goal: string | null;
  goal_status: GoalStatus | null;
  out_of_office: boolean | null;
  responder_message: string | null;
  sdr_brief: string | null;
  sentiment: Sentiment | null;
};

export type AgentSettings = Pick<
  ResponderSettingsRecord,
  'mode' | 'goal' | 'booking_url' | 'escalate_negative' | 'handle_out_of_office'
>;

export interface ReplyAgentInput {
  /** The campaign's `responder_enabled`. */
  responderEnabled: boolean;
  settings: AgentSettings;
  analysis: ReplyAnalysis;
  /** The reply as received (row 7 reads it). */
  message: string | null;
  channel: ReplyChannel;
  /** For the texts; null or erased fields give neutral wording. */
  lead: BriefLead | null;
  /** The agent's state after this sequence lead's previous reply, if any. */
  previous?: { conversation_status: string | null; goal_status: string | null } | null;
}

export const escalationReasons = {
  responderDisabled: 'reply agent disabled for this campaign',
  negativeReply: 'negative reply (escalate_negative is on)',
  copilot: 'copilot mode: a person reviews the drafted reply and sends it',
} as const;

const goalStatuses: readonly string[] = ['not_sent', 'link_sent', 'soft_commit', 'confirmed', 'declined'];
/** How far towards the goal each status is; `declined` and `not_sent` are where a positive reply starts again. */
const goalProgress: Partial<Record<GoalStatus, number>> = { soft_commit: 1, link_sent: 2, confirmed: 3 };

function keptGoalStatus(previous: ReplyAgentInput['previous']): GoalStatus {
  const status = previous?.goal_status;
  return status && goalStatuses.includes(status) ? (status as GoalStatus) : 'not_sent';
}

/** `next`, unless the previous status was further along: a positive reply does not move the goal back. */
function advancedGoalStatus(previous: ReplyAgentInput['previous'], next: GoalStatus): GoalStatus {
  const kept = keptGoalStatus(previous);
  return (goalProgress[kept] ?? 0) > (goalProgress[next] ?? 0) ? kept : next;
}

interface Decision {
  agent_action: AgentAction;
  conversation_status: ConversationStatus;
  goal_status: GoalStatus;
  responder_message: string | null;
  escalation_reason: string | null;
  /** The sentence after the reply summary in `sdr_brief`. */
  outcome: string;
}

/** The `ai_response` for one reply; see the table in the file header. */
export function decideReply(input: ReplyAgentInput): AiResponse {
  const { analysis } = input;
  if (!analysis.analysed) return notAnalysedResponse(analysis.reason);
  const decision = decide(input, analysis.classification);
  return {
    agent_action: decision.agent_action,
    agent_version: responderAgentVersion,
    asset_delivered: null,
    asset_url: null,
    complete: decision.conversation_status.startsWith('closed_'),
    conversation_status: decision.conversation_status,
    escalation_reason: decision.escalation_reason,
    first_message_mode: null,
    goal: input.settings.goal,
    goal_status: decision.goal_status,
    out_of_office: analysis.classification.out_of_office,
    responder_message: decision.responder_message,
    sdr_brief: `${replySummary(input.lead, input.channel, analysis.classification)} ${decision.outcome}`,
    sentiment: analysis.classification.sentiment,
  };
}

/** Section 6: a reply that was not analysed has every field null except `goal`, the reason. */
export function notAnalysedResponse(reason: string): AiResponse {
  return {
    agent_action: null,
    agent_version: null,
    asset_delivered: null,
    asset_url: null,
    complete: null,
    conversation_status: null,
    escalation_reason: null,
    first_message_mode: null,
    goal: reason,
    goal_status: null,
    out_of_office: null,
    responder_message: null,
    sdr_brief: null,
    sentiment: null,
  };
}

function decide(input: ReplyAgentInput, classification: { sentiment: Sentiment; out_of_office: boolean }): Decision {
  const { settings, previous, lead } = input;
  const kept = keptGoalStatus(previous);
  const quiet = { responder_message: null, escalation_reason: null };

  if (!input.responderEnabled) {
    return {
      ...quiet,
      agent_action: 'skip',
      conversation_status: 'needs_human',
      goal_status: kept,
      escalation_reason: escalationReasons.responderDisabled,
      outcome: 'The reply agent is off for this campaign: a person should answer.',
    };
  }
  if (previous?.conversation_status === 'human_owned') {
    return {
      ...quiet,
      agent_action: 'skip',
      conversation_status: 'human_owned',
      goal_status: kept,
      outcome: 'A person owns this conversation; the agent did not answer.',
    };
  }
  if (classification.out_of_office) {
    return settings.handle_out_of_office
      ? {
          ...quiet,
          agent_action: 'wait',
          conversation_status: 'awaiting_prospect',
          goal_status: kept,
          outcome: 'Waiting until they are back; a nudge follows.',
        }
      : {
          ...quiet,
          agent_action: 'skip',
          conversation_status: 'awaiting_prospect',
          goal_status: kept,
          outcome: 'Out-of-office replies are not handled for this campaign; ignored.',
        };
  }
  if (classification.sentiment === 'negative') {
    return settings.escalate_negative
      ? {
          ...quiet,
          agent_action: 'escalate',
          conversation_status: 'closed_escalated',
          goal_status: 'declined',
          escalation_reason: escalationReasons.negativeReply,
          outcome: 'Escalated to a person; the agent will not answer again.',
        }
      : {
          ...quiet,
          agent_action: 'close',
          conversation_status: 'closed_lost',
          goal_status: 'declined',
          outcome: 'Closed as lost.',
        };
  }
  if ((kept === 'link_sent' || kept === 'soft_commit') && saysBooked(input.message)) {
    return {
      ...quiet,
      agent_action: 'close',
      conversation_status: 'closed_won',
      goal_status: 'confirmed',
      outcome: 'They say they booked the meeting; recorded as a confirmation. Closed as won.',
    };
  }
  const positive = classification.sentiment === 'positive';
  const draft = !positive
    ? responderTexts.neutral(lead)
    : settings.booking_url
      ? responderTexts.positiveWithLink(lead, settings.booking_url)
      : responderTexts.positiveWithoutLink(lead);
  if (settings.mode === 'copilot') {
    return {
      ...quiet,
      agent_action: 'escalate',
      conversation_status: 'needs_human',
      goal_status: positive ? advancedGoalStatus(previous, 'soft_commit') : kept,
      escalation_reason: escalationReasons.copilot,
      outcome: `Copilot: a person should review and send the drafted reply: "${draft}"`,
    };
  }
  if (positive) {
    const goalStatus = advancedGoalStatus(previous, settings.booking_url ? 'link_sent' : 'soft_commit');
    return {
      ...quiet,
      agent_action: 'reply',
      conversation_status: 'awaiting_prospect',
      goal_status: goalStatus,
      responder_message: draft,
      outcome: settings.booking_url
        ? 'Booking link sent; waiting for them to pick a slot.'
        : 'Asked them for a time (no booking link set).',
    };
  }
  return {
    ...quiet,
    agent_action: 'reply',
    conversation_status: 'awaiting_prospect',
    goal_status: kept,
    responder_message: draft,
    outcome: 'Answered with an offer of a short call.',
  };
}

/**
 * The booking a reply implies: a confirmation by the agent when it closed the conversation
 * as won on the prospect's word (row 7), none otherwise. Meetings (calendar events) never
 * come from a reply.
 */
export function impliedBooking(response: AiResponse): { kind: 'confirmation'; confirmed_by: 'agent' } | null {
  return response.agent_version === responderAgentVersion &&
    response.conversation_status === 'closed_won' &&
    response.goal_status === 'confirmed'
    ? { kind: 'confirmation', confirmed_by: 'agent' }
    : null;
}
