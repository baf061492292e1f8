/** The reply agent's decision table (domain/replies/agent.ts header), row by row, and its invariants over every input. */
import { describe, expect, it } from 'vitest';
import {
  type AgentSettings,
  type AiResponse,
  type ReplyAgentInput,
  decideReply,
  escalationReasons,
  impliedBooking,
} from '../../../src/domain/replies/agent.ts';
import type { ReplyAnalysis } from '../../../src/domain/replies/analysis.ts';
import type { ReplyClassification } from '../../../src/domain/replies/classifier.ts';

const autopilot: AgentSettings = {
  mode: 'autopilot',
  goal: 'Book a 20-minute intro call',
  booking_url: 'https://cal.example.com/sam/intro-20',
  escalate_negative: false,
  handle_out_of_office: true,
};
const maya = { first_name: 'Maya', last_name: 'Patel', title: 'CEO', company: 'Acme Robotics' };

const classified = (sentiment: ReplyClassification['sentiment'], out_of_office = false): ReplyAnalysis => ({
  analysed: true,
  classification: { sentiment, out_of_office },
});
const positive = classified('positive');
const neutral = classified('neutral');
const negative = classified('negative');
const outOfOffice = classified('neutral', true);

function decide(overrides: Partial<ReplyAgentInput> & { analysis: ReplyAnalysis }): AiResponse {
  return decideReply({
    responderEnabled: true,
    settings: autopilot,
    message: 'a reply',
    channel: 'email',
    lead: maya,
    previous: null,
    ...overrides,
  });
}

/** The fields the table decides. */
const row = (response: AiResponse) => ({
  agent_action: response.agent_action,
  conversation_status: response.conversation_status,
  goal_status: response.goal_status,
  complete: response.complete,
});

describe('decideReply: the table', () => {
  it('1. responder disabled: skip, a person answers; the reply is still classified', () => {
    for (const analysis of [positive, neutral, negative, outOfOffice]) {
      const response = decide({ responderEnabled: false, analysis });
      expect(row(response)).toEqual({
        agent_action: 'skip',
        conversation_status: 'needs_human',
        goal_status: 'not_sent',
        complete: false,
      });
      expect(response.escalation_reason).toBe(escalationReasons.responderDisabled);
      expect(response.responder_message).toBeNull();
      expect(response.agent_version).toBe(2);
      expect(response.goal).toBe('Book a 20-minute intro call');
      if (analysis.analysed) {
        expect(response.sentiment).toBe(analysis.classification.sentiment);
        expect(response.out_of_office).toBe(analysis.classification.out_of_office);
      }
    }
  });

  it('2. a person owns the conversation: the agent keeps out', () => {
    const previous = { conversation_status: 'human_owned', goal_status: 'link_sent' };
    expect(row(decide({ analysis: positive, previous }))).toEqual({
      agent_action: 'skip',
      conversation_status: 'human_owned',
      goal_status: 'link_sent',
      complete: false,
    });
  });

  it('3. out of office, handled: wait for the prospect', () => {
    const response = decide({ analysis: outOfOffice });
    expect(row(response)).toEqual({
      agent_action: 'wait',
      conversation_status: 'awaiting_prospect',
      goal_status: 'not_sent',
      complete: false,
    });
    expect(response.responder_message).toBeNull();
    expect(response.out_of_office).toBe(true);
  });

  it('4. out of office, not handled: ignored', () => {
    const settings = { ...autopilot, handle_out_of_office: false };
    expect(row(decide({ analysis: outOfOffice, settings }))).toEqual({
      agent_action: 'skip',
      conversation_status: 'awaiting_prospect',
      goal_status: 'not_sent',
      complete: false,
    });
  });

  it('5. negative with escalate_negative: escalated and closed for the agent', () => {
    const response = decide({ analysis: negative, settings: { ...autopilot, escalate_negative: true } });
    expect(row(response)).toEqual({
      agent_action: 'escalate',
      conversation_status: 'closed_escalated',
      goal_status: 'declined',
      complete: true,
    });
    expect(response.escalation_reason).toBe(escalationReasons.negativeReply);
    expect(response.responder_message).toBeNull();
  });

  it('6. negative otherwise: closed as lost, in either mode', () => {
    for (const mode of ['autopilot', 'copilot'] as const) {
      const response = decide({ analysis: negative, settings: { ...autopilot, mode } });
      expect(row(response)).toEqual({
        agent_action: 'close',
        conversation_status: 'closed_lost',
        goal_status: 'declined',
        complete: true,
      });
      expect(response.escalation_reason).toBeNull();
    }
  });

  it('7. "I booked" after the link was sent: closed as won, a confirmation booking', () => {
    for (const goal_status of ['link_sent', 'soft_commit']) {
      const response = decide({
        analysis: positive,
        message: 'Just booked a slot for Tuesday, thanks!',
        previous: { conversation_status: 'awaiting_prospect', goal_status },
      });
      expect(row(response)).toEqual({
        agent_action: 'close',
        conversation_status: 'closed_won',
        goal_status: 'confirmed',
        complete: true,
      });
      expect(impliedBooking(response)).toEqual({ kind: 'confirmation', confirmed_by: 'agent' });
    }
  });

  it('7. ...but not before anything was asked, nor when negated', () => {
    const first = decide({ analysis: positive, message: 'Sounds good, I booked a slot' });
    expect(first.conversation_status).toBe('awaiting_prospect');
    const notYet = decide({
      analysis: positive,
      message: "Sounds good, haven't booked yet",
      previous: { conversation_status: 'awaiting_prospect', goal_status: 'link_sent' },
    });
    expect(notYet.conversation_status).toBe('awaiting_prospect');
    expect(impliedBooking(notYet)).toBeNull();
  });

  it('8. copilot: positive or neutral replies go to a person with a draft', () => {
    const settings = { ...autopilot, mode: 'copilot' as const };
    const positiveResponse = decide({ analysis: positive, settings });
    expect(row(positiveResponse)).toEqual({
      agent_action: 'escalate',
      conversation_status: 'needs_human',
      goal_status: 'soft_commit',
      complete: false,
    });
    expect(positiveResponse.responder_message).toBeNull();
    expect(positiveResponse.escalation_reason).toBe(escalationReasons.copilot);
    expect(positiveResponse.sdr_brief).toContain('https://cal.example.com/sam/intro-20');
    expect(row(decide({ analysis: neutral, settings }))).toEqual({
      agent_action: 'escalate',
      conversation_status: 'needs_human',
      goal_status: 'not_sent',
      complete: false,
    });
  });

  it('9. autopilot, positive, booking link: replies with the link', () => {
    const response = decide({ analysis: positive });
    expect(row(response)).toEqual({
      agent_action: 'reply',
      conversation_status: 'awaiting_prospect',
      goal_status: 'link_sent',
      complete: false,
    });
    expect(response.responder_message).toContain('https://cal.example.com/sam/intro-20');
    expect(response.responder_message).toContain('Maya');
  });

  it('10. autopilot, positive, no booking link: asks for a time', () => {
    const response = decide({ analysis: positive, settings: { ...autopilot, booking_url: null } });
    expect(row(response)).toEqual({
      agent_action: 'reply',
      conversation_status: 'awaiting_prospect',
      goal_status: 'soft_commit',
      complete: false,
    });
    expect(response.responder_message).toMatch(/time/);
    expect(response.responder_message).not.toContain('http');
  });

  it('11. autopilot, neutral: answers, goal status kept', () => {
    const response = decide({
      analysis: neutral,
      previous: { conversation_status: 'awaiting_prospect', goal_status: 'link_sent' },
    });
    expect(row(response)).toEqual({
      agent_action: 'reply',
      conversation_status: 'awaiting_prospect',
      goal_status: 'link_sent',
      complete: false,
    });
    expect(response.responder_message).not.toBeNull();
  });

  it('a positive reply never moves the goal back, and restarts it after a decline', () => {
    const noLink = { ...autopilot, booking_url: null };
    const afterLink = { conversation_status: 'awaiting_prospect', goal_status: 'link_sent' };
    expect(decide({ analysis: positive, settings: noLink, previous: afterLink }).goal_status).toBe('link_sent');
    const afterDecline = { conversation_status: 'closed_lost', goal_status: 'declined' };
    const reopened = decide({ analysis: positive, previous: afterDecline });
    expect(row(reopened)).toEqual({
      agent_action: 'reply',
      conversation_status: 'awaiting_prospect',
      goal_status: 'link_sent',
      complete: false,
    });
  });

  it('an unknown previous goal status counts as not_sent', () => {
    const previous = { conversation_status: 'awaiting_followup', goal_status: 'something_new' };
    expect(decide({ analysis: neutral, previous }).goal_status).toBe('not_sent');
  });
});

describe('decideReply: not analysed', () => {
  it.each(['skipped: no reply text', 'skipped: classification unavailable'])(
    'every field null except goal, the reason (%s)',
    (reason) => {
      for (const responderEnabled of [true, false]) {
        const response = decide({ responderEnabled, analysis: { analysed: false, reason } });
        expect(response).toEqual({
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
        });
        expect(impliedBooking(response)).toBeNull();
      }
    },
  );
});

describe('decideReply: texts', () => {
  it('briefs the rep with who replied, how, and what the agent did', () => {
    expect(decide({ analysis: positive, channel: 'linkedin' }).sdr_brief).toBe(
      'Maya Patel (CEO, Acme Robotics) replied positively by LinkedIn. Booking link sent; waiting for them to pick a slot.',
    );
    expect(decide({ analysis: outOfOffice }).sdr_brief).toMatch(
      /^Maya Patel \(CEO, Acme Robotics\) sent an out-of-office reply/,
    );
  });

  it('uses neutral wording for an erased lead', () => {
    const erased = { first_name: null, last_name: null, title: null, company: null };
    for (const lead of [erased, null]) {
      const response = decide({ analysis: positive, lead });
      expect(response.sdr_brief).toMatch(/^The lead replied positively by email\./);
      expect(response.responder_message).toBe(
        'Great to hear! Here is my calendar, pick any time that suits you: https://cal.example.com/sam/intro-20',
      );
    }
  });
});

/** Every combination of settings, classification and previous state the agent can meet. */
function everyInput(): ReplyAgentInput[] {
  const analyses: ReplyAnalysis[] = [
    positive,
    neutral,
    negative,
    outOfOffice,
    classified('positive', true),
    classified('negative', true),
  ];
  const previousStates = [
    null,
    ...['awaiting_prospect', 'needs_human', 'human_owned', 'closed_won', 'closed_lost', 'closed_escalated'].flatMap(
      (conversation_status) =>
        ['not_sent', 'link_sent', 'soft_commit', 'confirmed', 'declined'].map((goal_status) => ({
          conversation_status,
          goal_status,
        })),
    ),
  ];
  const inputs: ReplyAgentInput[] = [];
  for (const responderEnabled of [true, false])
    for (const mode of ['autopilot', 'copilot'] as const)
      for (const booking_url of [null, 'https://cal.example.com/x'])
        for (const escalate_negative of [true, false])
          for (const handle_out_of_office of [true, false])
            for (const analysis of analyses)
              for (const previous of previousStates)
                for (const message of ['Sounds good', 'Booked a slot for Friday'])
                  inputs.push({
                    responderEnabled,
                    settings: { mode, goal: null, booking_url, escalate_negative, handle_out_of_office },
                    analysis,
                    message,
                    channel: 'email',
                    lead: maya,
                    previous,
                  });
  return inputs;
}

describe('decideReply: invariants over every input', () => {
  const inputs = everyInput();
  const outcomes = inputs.map((input) => ({ input, response: decideReply(input) }));

  it('covers every action, status and goal status the table names', () => {
    expect(new Set(outcomes.map((o) => o.response.agent_action))).toEqual(
      new Set(['reply', 'wait', 'escalate', 'close', 'skip']),
    );
    expect(new Set(outcomes.map((o) => o.response.conversation_status))).toEqual(
      new Set(['awaiting_prospect', 'needs_human', 'human_owned', 'closed_won', 'closed_lost', 'closed_escalated']),
    );
    expect(new Set(outcomes.map((o) => o.response.goal_status))).toEqual(
      new Set(['not_sent', 'link_sent', 'soft_commit', 'confirmed', 'declined']),
    );
  });

  it('agent_version 2: complete is true exactly when conversation_status starts with closed_', () => {
    for (const { response } of outcomes) {
      expect(response.agent_version).toBe(2);
      expect(response.complete).toBe(response.conversation_status?.startsWith('closed_'));
    }
  });

  it('a message is sent exactly when the action is reply, and never when disabled, negative or out of office', () => {
    for (const { input, response } of outcomes) {
      expect(response.responder_message !== null).toBe(response.agent_action === 'reply');
      const classification = input.analysis.analysed ? input.analysis.classification : null;
      if (!input.responderEnabled || classification?.sentiment === 'negative' || classification?.out_of_office) {
        expect(response.responder_message).toBeNull();
      }
    }
  });

  it('an escalation always says why; a booking is implied only by a close as won', () => {
    for (const { response } of outcomes) {
      if (response.agent_action === 'escalate') expect(response.escalation_reason).toBeTruthy();
      expect(impliedBooking(response) !== null).toBe(response.conversation_status === 'closed_won');
    }
  });
});
