/** The queue: each running lead's next step, its sender, soonest first. */
import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/domain/activity.ts';
import { bucket } from '../../src/domain/arm.ts';
import { campaignQueue, type QueueCampaign, senderFor, sequenceStart } from '../../src/domain/campaign-queue.ts';
import type { ActivityKind, EnrolmentWithLeadRecord } from '../../src/store/records.ts';
import { q4Sequence } from '../support/activity.ts';

const at = (day: number, hour = 9, minute = 0) => new Date(Date.UTC(2026, 10, day, hour, minute)).toISOString();

const accounts = [
  { id: 'acc_li_1', platform: 'linkedin' as const },
  { id: 'acc_em_1', platform: 'email' as const },
  { id: 'acc_li_2', platform: 'linkedin' as const },
  { id: 'acc_em_2', platform: 'email' as const },
];

let counter = 0;
function event(enrolmentId: string, kind: ActivityKind, occurredAt: string, extra: Partial<ActivityEvent> = {}) {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    enrolment_id: enrolmentId,
    kind,
    occurred_at: occurredAt,
    step_id: null,
    account_id: null,
    channel: kind === 'email_sent' ? 'email' : 'linkedin',
    data: {},
    ...extra,
  } satisfies ActivityEvent;
}

function enrolment(id: string, overrides: Partial<EnrolmentWithLeadRecord> = {}): EnrolmentWithLeadRecord {
  return {
    id,
    organization_id: 'org',
    campaign_id: 'c1',
    lead_id: `lead-${id}`,
    status: 'not_contacted',
    variation: null,
    enrolled_at: at(1),
    removed_at: null,
    lead_deleted_at: null,
    ...overrides,
  };
}

describe('senderFor', () => {
  it.each<[string, 'email' | 'linkedin', string[], ActivityEvent[], string | null]>([
    ['the first assigned account of the platform', 'linkedin', ['acc_em_1', 'acc_li_2', 'acc_li_1'], [], 'acc_li_2'],
    ['none assigned for the channel', 'email', ['acc_li_1'], [], null],
    [
      'the account that last wrote to the lead on the channel',
      'email',
      ['acc_em_1', 'acc_em_2'],
      [
        event('e', 'email_sent', at(2), { account_id: 'acc_em_1' }),
        event('e', 'email_sent', at(3), { account_id: 'acc_em_2' }),
      ],
      'acc_em_2',
    ],
    [
      'not an account no longer assigned',
      'email',
      ['acc_em_1'],
      [event('e', 'email_sent', at(3), { account_id: 'acc_em_2' })],
      'acc_em_1',
    ],
  ])('%s', (_title, channel, assignedIds, events, expected) => {
    const assigned = assignedIds.map((id) => accounts.find((a) => a.id === id) as (typeof accounts)[number]);
    expect(senderFor(channel, assigned, events)).toBe(expected);
  });
});

describe('sequenceStart', () => {
  it.each([
    [at(1), null, at(1)],
    [at(1), at(2), at(2)],
    [at(3), at(2), at(3)],
  ])('enrolled %s, activated %s: %s', (enrolled, activated, expected) => {
    expect(sequenceStart(enrolled, activated)).toBe(expected);
  });
});

describe('campaignQueue', () => {
  const campaign: QueueCampaign = {
    is_active: true,
    sequence: q4Sequence(),
    ab_winner: null,
    ab_testing_enabled: false,
    traffic_split: 50,
    activated_at: at(2),
    enabled_accounts: ['acc_li_1', 'acc_em_1'],
  };
  const enrolments = [
    enrolment('e1', { status: 'active', variation: 'b' }),
    enrolment('e2'),
    enrolment('e3', { status: 'paused', variation: 'a' }),
    enrolment('e4', { status: 'completed', variation: 'a' }),
    enrolment('e5', { removed_at: at(2) }),
    enrolment('e6', { lead_deleted_at: at(2) }),
    enrolment('e0', { enrolled_at: at(5) }),
    enrolment('e7', { status: 'active', variation: 'a' }),
  ];
  const events = [
    event('e1', 'email_sent', at(2, 10), { step_id: 7, account_id: 'acc_em_1' }),
    event('e7', 'email_sent', at(2, 10), { step_id: 1, account_id: 'acc_em_1' }),
    event('e7', 'reply_received', at(2, 11), { channel: 'email' }),
    event('e3', 'email_sent', at(2, 10), { step_id: 1 }),
  ];
  const queue = (overrides: Partial<Parameters<typeof campaignQueue>[0]> = {}) =>
    campaignQueue({ campaign, accounts, enrolments, events, now: at(2, 12), limit: 100, ...overrides });

  it('lists running leads soonest first, ties by sequence lead, with arm, channel and sender', () => {
    expect(queue()).toEqual([
      {
        sequence_lead_id: 'e2',
        lead_id: 'lead-e2',
        step_id: 1,
        step_type: 'email',
        variation: null,
        channel: 'email',
        due_at: '2026-11-02T09:00:00.000+00:00',
        sender_account_id: 'acc_em_1',
      },
      {
        sequence_lead_id: 'e1',
        lead_id: 'lead-e1',
        step_id: 8,
        step_type: 'view_profile',
        variation: 'b',
        channel: 'linkedin',
        due_at: '2026-11-03T10:00:00.000+00:00',
        sender_account_id: 'acc_li_1',
      },
      {
        sequence_lead_id: 'e0',
        lead_id: 'lead-e0',
        step_id: 1,
        step_type: 'email',
        variation: null,
        channel: 'email',
        due_at: '2026-11-05T09:00:00.000+00:00',
        sender_account_id: 'acc_em_1',
      },
    ]);
  });

  it.each<[string, Partial<Parameters<typeof campaignQueue>[0]>, string[]]>([
    ['limit keeps the soonest', { limit: 2 }, ['e2', 'e1']],
    ['before keeps items due at or before it', { before: '2026-11-03T10:00:00+00:00' }, ['e2', 'e1']],
    ['before earlier than everything', { before: at(1) }, []],
    ['a deactivated campaign sends nothing', { campaign: { ...campaign, is_active: false } }, []],
    ['a campaign without a sequence sends nothing', { campaign: { ...campaign, sequence: [] } }, []],
  ])('%s', (_title, overrides, expected) => {
    expect(queue(overrides).map((item) => item.sequence_lead_id)).toEqual(expected);
  });

  it('leaves no sender when none is assigned for the channel', () => {
    const [first] = queue({ campaign: { ...campaign, enabled_accounts: ['acc_li_1'] } });
    expect(first).toMatchObject({ sequence_lead_id: 'e2', sender_account_id: null });
  });

  it("shows a lead without an arm the first step of the arm it will be drawn into, from that channel's account", () => {
    // Arm b opens on LinkedIn, arm a by email; with a 50 % split, a lead's bucket decides.
    const sequence = q4Sequence();
    const split: QueueCampaign = {
      ...campaign,
      ab_testing_enabled: true,
      sequence: { ...sequence, variation_b: [{ id: 20, type: 'view_profile' }, ...(sequence.variation_b ?? [])] },
    };
    const idIn = (inA: boolean) => {
      for (let n = 0; ; n += 1) if (bucket(`lead-${n}`) < 50 === inA) return `lead-${n}`;
    };
    const [a, b] = [idIn(true), idIn(false)];
    const items = campaignQueue({
      campaign: split,
      accounts,
      enrolments: [enrolment(a), enrolment(b)],
      events: [],
      now: at(2, 12),
      limit: 100,
    });
    expect(
      items.map(({ sequence_lead_id, step_id, variation, channel, sender_account_id }) => ({
        sequence_lead_id,
        step_id,
        variation,
        channel,
        sender_account_id,
      })),
    ).toEqual(
      [
        { sequence_lead_id: a, step_id: 1, variation: null, channel: 'email', sender_account_id: 'acc_em_1' },
        { sequence_lead_id: b, step_id: 20, variation: null, channel: 'linkedin', sender_account_id: 'acc_li_1' },
      ].sort((x, y) => (x.sequence_lead_id < y.sequence_lead_id ? -1 : 1)),
    );
  });
});
