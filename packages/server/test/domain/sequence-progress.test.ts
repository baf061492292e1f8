/** Where a lead is in its sequence: due times, branches, pauses, completion, arms, promotion. */
import { describe, expect, it } from 'vitest';
import type { ActivityEvent } from '../../src/domain/activity.ts';
import {
  type Progress,
  type ProgressInput,
  sequenceProgress,
  stepPositions,
  stepRunRecord,
} from '../../src/domain/sequence-progress.ts';
import type { ActivityKind, Sequence, SequenceStep, StepRunData } from '../../src/store/records.ts';
import { q4Sequence } from '../support/activity.ts';

const at = (day: number, hour = 9, minute = 0) => new Date(Date.UTC(2026, 10, day, hour, minute)).toISOString();

let counter = 0;
function event(kind: ActivityKind, occurredAt: string, extra: Partial<ActivityEvent> = {}): ActivityEvent {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    enrolment_id: 'e1',
    kind,
    occurred_at: occurredAt,
    step_id: null,
    account_id: null,
    channel: null,
    data: {},
    ...extra,
  };
}
const ran = (stepId: number, kind: ActivityKind, occurredAt: string, data: StepRunData = {}) =>
  event(kind, occurredAt, { step_id: stepId, data });
const accepted = (occurredAt: string) => event('connection_accepted', occurredAt);
const reply = (occurredAt: string) => event('reply_received', occurredAt, { data: { sentiment: 'positive' } });

/** Arm a's first three steps run at 09:05 on 2, 3 and 4 November (step 4 due 7 Nov 09:05). */
const firstThree = [
  ran(1, 'email_sent', at(2, 9, 5)),
  ran(2, 'profile_viewed', at(3, 9, 5)),
  ran(3, 'connection_requested', at(4, 9, 5)),
];

/** What a test checks of a progress: state, next step and the trail as `id@ran_at(outcome)`. */
function summary(progress: Progress) {
  return {
    state: progress.state,
    at: 'at' in progress ? progress.at : undefined,
    next:
      'next' in progress
        ? `${progress.next.step.id}@${progress.next.due_at} ${progress.next.variation} ${progress.next.branch ?? '-'} ${progress.next.channel}`
        : undefined,
    trail: progress.trail.map(
      (entry) => `${entry.step.id}@${entry.ran_at ?? `due ${entry.due_at}`}${entry.outcome ? ` ${entry.outcome}` : ''}`,
    ),
  };
}

const base: ProgressInput = {
  sequence: q4Sequence(),
  arm: 'a',
  winner: null,
  start: at(2),
  events: [],
  now: at(10),
};

/** Arm b's steps moved into `variation_a`, as promoting b leaves the sequence. */
function promotedB(): Sequence {
  return { variation_a: q4Sequence().variation_b ?? [] };
}

/** A sequence whose conditionals nest two deep, with a step after the outer one. */
const nested: Sequence = {
  variation_a: [
    { id: 1, type: 'linkedin_connection', delay: 0 },
    {
      id: 2,
      type: 'conditional',
      delay: 2,
      branches: {
        yes: [{ id: 3, type: 'linkedin_message', message: 'hi', delay: 1 }],
        no: [
          { id: 4, type: 'linkedin_connection', delay: 1 },
          {
            id: 5,
            type: 'conditional',
            delay: 2,
            branches: {
              yes: [{ id: 6, type: 'linkedin_message', message: 'hi', delay: 1 }],
              no: [{ id: 7, type: 'email', subject: 's', content: 'c', delay: 1 }],
            },
          },
        ],
      },
    },
    { id: 8, type: 'email', subject: 's', content: 'c', delay: 3 },
  ],
};

describe('sequenceProgress', () => {
  it.each<[string, Partial<ProgressInput>, ReturnType<typeof summary>]>([
    [
      'before the start: the first step, due at the start',
      { now: at(1) },
      { state: 'pending', at: undefined, next: `1@${at(2)} a - email`, trail: [] },
    ],
    [
      'an overdue first step is reached but has not run',
      { now: at(3) },
      { state: 'pending', at: undefined, next: `1@${at(2)} a - email`, trail: [`1@due ${at(2)}`] },
    ],
    [
      'the next step is due one delay after the previous one ran',
      { events: [ran(1, 'email_sent', at(2, 9, 5))], now: at(2, 12) },
      { state: 'pending', at: undefined, next: `2@${at(3, 9, 5)} a - linkedin`, trail: [`1@${at(2, 9, 5)}`] },
    ],
    [
      'the conditional waits for its own delay after the request',
      { events: firstThree, now: at(6) },
      {
        state: 'pending',
        at: undefined,
        next: `4@${at(7, 9, 5)} a - linkedin`,
        trail: [`1@${at(2, 9, 5)}`, `2@${at(3, 9, 5)}`, `3@${at(4, 9, 5)}`],
      },
    ],
    [
      'accepted before the conditional is due: the yes branch',
      { events: [...firstThree, accepted(at(5))], now: at(7, 12) },
      {
        state: 'pending',
        at: undefined,
        next: `5@${at(8, 9, 5)} a 4.yes linkedin`,
        trail: [`1@${at(2, 9, 5)}`, `2@${at(3, 9, 5)}`, `3@${at(4, 9, 5)}`, `4@${at(7, 9, 5)} yes`],
      },
    ],
    [
      'accepted exactly when the conditional is due: yes',
      { events: [...firstThree, accepted(at(7, 9, 5))], now: at(7, 12) },
      expect.objectContaining({ next: `5@${at(8, 9, 5)} a 4.yes linkedin` }),
    ],
    [
      'accepted after the conditional was due: the no branch',
      { events: [...firstThree, accepted(at(7, 9, 6))], now: at(7, 12) },
      expect.objectContaining({
        next: `6@${at(9, 9, 5)} a 4.no email`,
        trail: expect.arrayContaining([`4@${at(7, 9, 5)} no`]),
      }),
    ],
    [
      'already connected when the request step ran: yes',
      {
        events: [
          ran(1, 'email_sent', at(2, 9, 5)),
          ran(2, 'profile_viewed', at(3, 9, 5)),
          ran(3, 'already_connected', at(4, 9, 5)),
        ],
        now: at(7, 12),
      },
      expect.objectContaining({ next: `5@${at(8, 9, 5)} a 4.yes linkedin` }),
    ],
    [
      'the last step of a branch completes the sequence',
      { events: [...firstThree, accepted(at(5)), ran(5, 'linkedin_message_sent', at(8, 10))], now: at(9) },
      {
        state: 'completed',
        at: at(8, 10),
        next: undefined,
        trail: [`1@${at(2, 9, 5)}`, `2@${at(3, 9, 5)}`, `3@${at(4, 9, 5)}`, `4@${at(7, 9, 5)} yes`, `5@${at(8, 10)}`],
      },
    ],
    [
      'a reply pauses before the next step, which is not reached',
      { events: [ran(1, 'email_sent', at(2, 9, 5)), reply(at(2, 12))], now: at(5) },
      { state: 'paused', at: at(2, 12), next: `2@${at(3, 9, 5)} a - linkedin`, trail: [`1@${at(2, 9, 5)}`] },
    ],
    [
      'a reply after a step came due: reached, not run, paused',
      { events: [ran(1, 'email_sent', at(2, 9, 5)), reply(at(3, 12))], now: at(5) },
      {
        state: 'paused',
        at: at(3, 12),
        next: `2@${at(3, 9, 5)} a - linkedin`,
        trail: [`1@${at(2, 9, 5)}`, `2@due ${at(3, 9, 5)}`],
      },
    ],
    [
      'a reply before the conditional is due pauses at the conditional',
      { events: [...firstThree, accepted(at(5)), reply(at(6))], now: at(9) },
      expect.objectContaining({ state: 'paused', at: at(6), next: `4@${at(7, 9, 5)} a - linkedin` }),
    ],
    [
      'a reply after the conditional ran pauses in its branch',
      { events: [...firstThree, accepted(at(5)), reply(at(7, 12))], now: at(9) },
      expect.objectContaining({ state: 'paused', next: `5@${at(8, 9, 5)} a 4.yes linkedin` }),
    ],
    [
      'arm b follows variation_b',
      { arm: 'b', events: [ran(7, 'email_sent', at(2, 9, 5))], now: at(2, 12) },
      { state: 'pending', at: undefined, next: `8@${at(3, 9, 5)} b - linkedin`, trail: [`7@${at(2, 9, 5)}`] },
    ],
    [
      'a lead without an arm is shown the first step of variation_a',
      { arm: null, now: at(1) },
      { state: 'pending', at: undefined, next: `1@${at(2)} a - email`, trail: [] },
    ],
    [
      'the start is the later of enrolment and activation, given by the caller',
      { start: at(4, 15), now: at(1) },
      expect.objectContaining({ next: `1@${at(4, 15)} a - email` }),
    ],
    [
      'promoting b: an a lead continues on the promoted steps at the same position',
      {
        sequence: promotedB(),
        winner: 'b',
        events: [
          ran(1, 'email_sent', at(2, 9, 5), { position: '0', next_step_id: 2 }),
          ran(2, 'profile_viewed', at(3, 9, 5), { position: '1', next_step_id: 3 }),
        ],
        now: at(3, 12),
      },
      {
        state: 'pending',
        at: undefined,
        next: `9@${at(4, 9, 5)} a - linkedin`,
        trail: [`7@${at(2, 9, 5)}`, `8@${at(3, 9, 5)}`],
      },
    ],
    [
      'promoting b: a b lead continues by step ID',
      {
        sequence: promotedB(),
        arm: 'b',
        winner: 'b',
        events: [ran(7, 'email_sent', at(2, 9, 5), { position: '0', next_step_id: 8 })],
        now: at(2, 12),
      },
      expect.objectContaining({ next: `8@${at(3, 9, 5)} a - linkedin`, trail: [`7@${at(2, 9, 5)}`] }),
    ],
    [
      'promoting a (variation_b gone): a b lead continues on variation_a at the same position',
      {
        sequence: { variation_a: q4Sequence().variation_a },
        arm: 'b',
        winner: 'a',
        events: [
          ran(7, 'email_sent', at(2, 9, 5), { position: '0', next_step_id: 8 }),
          ran(8, 'profile_viewed', at(3, 9, 5), { position: '1', next_step_id: 9 }),
          ran(9, 'connection_requested', at(4, 9, 5), { position: '2', next_step_id: 10 }),
          accepted(at(5)),
        ],
        now: at(7, 12),
      },
      expect.objectContaining({ next: `5@${at(8, 9, 5)} a 4.yes linkedin` }),
    ],
    [
      'replaced sequence: the lead continues from its next step by ID, skipping a new step before it',
      {
        sequence: {
          variation_a: [
            q4Sequence().variation_a[0] as SequenceStep,
            { id: 13, type: 'email', subject: 'New', content: 'New', delay: 0 },
            ...q4Sequence().variation_a.slice(1),
          ],
        },
        events: [ran(1, 'email_sent', at(2, 9, 5), { position: '0', next_step_id: 2 })],
        now: at(2, 12),
      },
      expect.objectContaining({ next: `2@${at(3, 9, 5)} a - linkedin` }),
    ],
    [
      'replaced sequence without the next step: the lead completes',
      {
        sequence: { variation_a: [q4Sequence().variation_a[0] as SequenceStep, ...q4Sequence().variation_a.slice(2)] },
        events: [ran(1, 'email_sent', at(2, 9, 5), { position: '0', next_step_id: 2 })],
        now: at(2, 12),
      },
      { state: 'completed', at: at(2, 9, 5), next: undefined, trail: [`1@${at(2, 9, 5)}`] },
    ],
    [
      'events without a recorded next step go on in sequence order',
      {
        sequence: {
          variation_a: [
            q4Sequence().variation_a[0] as SequenceStep,
            { id: 13, type: 'email', subject: 'New', content: 'New', delay: 0 },
          ],
        },
        events: [ran(1, 'email_sent', at(2, 9, 5))],
        now: at(2, 12),
      },
      expect.objectContaining({ next: `13@${at(2, 9, 5)} a - email` }),
    ],
    [
      'a recorded next step that leads back to a step already run ends the walk',
      {
        sequence: {
          variation_a: [
            { id: 1, type: 'email', subject: 's', content: 'c' },
            { id: 2, type: 'email', subject: 's', content: 'c' },
          ],
        },
        events: [ran(1, 'email_sent', at(2, 10)), ran(2, 'email_sent', at(2, 11), { next_step_id: 1 })],
        now: at(3),
      },
      { state: 'completed', at: at(2, 11), next: undefined, trail: [`1@${at(2, 10)}`, `2@${at(2, 11)}`] },
    ],
    ['no sequence', { sequence: [] }, { state: 'no_steps', at: undefined, next: undefined, trail: [] }],
    [
      'an empty variation_a',
      { sequence: { variation_a: [] } },
      { state: 'no_steps', at: undefined, next: undefined, trail: [] },
    ],
  ])('%s', (_title, overrides, expected) => {
    expect(summary(sequenceProgress({ ...base, ...overrides }))).toEqual(expected);
  });

  describe('nested conditionals', () => {
    const input = (events: ActivityEvent[], now: string): ProgressInput => ({
      ...base,
      sequence: nested,
      events,
      now,
    });

    it.each<[string, ActivityEvent[], string, ReturnType<typeof summary>]>([
      [
        'accepted at once: the outer yes branch, then the step after the conditional',
        [ran(1, 'connection_requested', at(2, 10)), accepted(at(3)), ran(3, 'linkedin_message_sent', at(5, 10))],
        at(6),
        {
          state: 'pending',
          at: undefined,
          next: `8@${at(8, 10)} a - email`,
          trail: [`1@${at(2, 10)}`, `2@${at(4, 10)} yes`, `3@${at(5, 10)}`],
        },
      ],
      [
        'not accepted, a second request, accepted then: the inner yes branch',
        [ran(1, 'connection_requested', at(2, 10)), ran(4, 'connection_requested', at(5, 10)), accepted(at(6))],
        at(7, 12),
        {
          state: 'pending',
          at: undefined,
          next: `6@${at(8, 10)} a 2.no.5.yes linkedin`,
          trail: [`1@${at(2, 10)}`, `2@${at(4, 10)} no`, `4@${at(5, 10)}`, `5@${at(7, 10)} yes`],
        },
      ],
      [
        'never accepted: the inner no branch, then after the outer conditional to completion',
        [
          ran(1, 'connection_requested', at(2, 10)),
          ran(4, 'connection_requested', at(5, 10)),
          ran(7, 'email_sent', at(8, 10)),
          ran(8, 'email_sent', at(11, 10)),
        ],
        at(12),
        {
          state: 'completed',
          at: at(11, 10),
          next: undefined,
          trail: [
            `1@${at(2, 10)}`,
            `2@${at(4, 10)} no`,
            `4@${at(5, 10)}`,
            `5@${at(7, 10)} no`,
            `7@${at(8, 10)}`,
            `8@${at(11, 10)}`,
          ],
        },
      ],
    ])('%s', (_title, events, now, expected) => {
      expect(summary(sequenceProgress(input(events, now)))).toEqual(expected);
    });

    it('goes on after a conditional whose chosen branch is empty', () => {
      const sequence: Sequence = {
        variation_a: [
          { id: 1, type: 'linkedin_connection' },
          {
            id: 2,
            type: 'conditional',
            delay: 1,
            branches: { yes: [], no: [{ id: 3, type: 'email', subject: 's', content: 'c' }] },
          },
          { id: 4, type: 'view_profile', delay: 2 },
        ],
      };
      const progress = sequenceProgress({
        ...base,
        sequence,
        events: [ran(1, 'connection_requested', at(2, 10)), accepted(at(2, 11))],
        now: at(3, 12),
      });
      expect(summary(progress)).toMatchObject({ state: 'pending', next: `4@${at(5, 10)} a - linkedin` });
    });
  });
});

describe('stepPositions and stepRunRecord', () => {
  it('lists positions and branch labels in sequence order', () => {
    expect(stepPositions(nested.variation_a).map((p) => `${p.step.id} ${p.position} ${p.branch ?? '-'}`)).toEqual([
      '1 0 -',
      '2 1 -',
      '3 1.yes.0 2.yes',
      '4 1.no.0 2.no',
      '5 1.no.1 2.no',
      '6 1.no.1.yes.0 2.no.5.yes',
      '7 1.no.1.no.0 2.no.5.no',
      '8 2 -',
    ]);
  });

  it.each([
    ['0', 2],
    ['1.yes.0', 8],
    ['1.no.0', 5],
    ['1.no.1.no.0', 8],
    ['2', null],
  ])('records the step after %s as %j', (position, next) => {
    expect(stepRunRecord(nested.variation_a, position)).toEqual({ position, next_step_id: next });
  });
});
