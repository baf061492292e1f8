/** The step funnel: per step, leads it came due for, ran for, and whose first reply followed it. */
import { describe, expect, it } from 'vitest';
import {
  type AnalyticsData,
  type AnalyticsWindow,
  type SequenceContext,
  stepFunnel,
} from '../../../src/domain/analytics/index.ts';
import { at, dataBuilder } from '../../support/analytics-data.ts';
import { q4Sequence } from '../../support/activity.ts';

const context: SequenceContext = { sequence: q4Sequence(), winner: null, activatedAt: at(2), now: at(10) };
const all: AnalyticsWindow = { from: null, variation: 'all' };

/** `a1 3/2 r1 p0 50` for variation a, step 1, reached 3, completed 2, replied 1, positive 0, 50 %. */
const rows = (data: AnalyticsData, window: AnalyticsWindow, ctx: SequenceContext = context) =>
  stepFunnel(data, window, ctx).map(
    (r) => `${r.variation}${r.step_id} ${r.reached}/${r.completed} r${r.replied} p${r.positive} ${r.reply_rate_pct}`,
  );

const data = dataBuilder()
  // a1 goes the whole way down the yes branch and replies after the message.
  .lead('a1', { variation: 'a' })
  .event('a1', 'email_sent', at(2, 9, 5), { step_id: 1 })
  .event('a1', 'profile_viewed', at(3, 9, 5), { step_id: 2 })
  .event('a1', 'connection_requested', at(4, 9, 5), { step_id: 3 })
  .event('a1', 'connection_accepted', at(5))
  .event('a1', 'linkedin_message_sent', at(8, 10), { step_id: 5 })
  .reply('a1', at(8, 12), 'linkedin', { sentiment: 'positive' })
  // a2 replies to the first email, which pauses it.
  .lead('a2', { variation: 'a', status: 'paused' })
  .event('a2', 'email_sent', at(2, 9, 5), { step_id: 1 })
  .reply('a2', at(2, 12), 'email', { sentiment: 'negative' })
  // a3 has no arm yet: its first step is overdue.
  .lead('a3', { variation: null, status: 'not_contacted' })
  // a4's first step ran late, on 5 November.
  .lead('a4', { variation: 'a' })
  .event('a4', 'email_sent', at(5), { step_id: 1 })
  // b1 ran the first step of arm b; the second is overdue.
  .lead('b1', { variation: 'b' })
  .event('b1', 'email_sent', at(2, 10), { step_id: 7 })
  .data();

describe('stepFunnel', () => {
  it('counts every step of both arms, in sequence order', () => {
    expect(rows(data, all)).toEqual([
      'a1 4/3 r1 p0 33.3',
      'a2 2/1 r0 p0 0',
      'a3 1/1 r0 p0 0',
      'a4 1/1 r0 p0 0',
      'a5 1/1 r1 p1 100',
      'a6 0/0 r0 p0 null',
      'b7 1/1 r0 p0 0',
      'b8 1/0 r0 p0 null',
      'b9 0/0 r0 p0 null',
      'b10 0/0 r0 p0 null',
      'b11 0/0 r0 p0 null',
      'b12 0/0 r0 p0 null',
    ]);
  });

  it('names each step’s branch and type', () => {
    const funnel = stepFunnel(data, all, context);
    expect(funnel.map((r) => `${r.step_id}:${r.type}:${r.branch ?? '-'}`).slice(0, 6)).toEqual([
      '1:email:-',
      '2:view_profile:-',
      '3:linkedin_connection:-',
      '4:conditional:-',
      '5:linkedin_message:4.yes',
      '6:email:4.no',
    ]);
  });

  it.each<[string, AnalyticsWindow, SequenceContext, string[]]>([
    [
      'a window: steps that came due or ran inside it, replies inside it',
      { from: at(4), variation: 'all' },
      context,
      [
        'a1 1/1 r0 p0 0',
        'a2 1/0 r0 p0 null',
        'a3 1/1 r0 p0 0',
        'a4 1/1 r0 p0 0',
        'a5 1/1 r1 p1 100',
        'a6 0/0 r0 p0 null',
        'b7 0/0 r0 p0 null',
        'b8 0/0 r0 p0 null',
        'b9 0/0 r0 p0 null',
        'b10 0/0 r0 p0 null',
        'b11 0/0 r0 p0 null',
        'b12 0/0 r0 p0 null',
      ],
    ],
    [
      'variation=b keeps arm b’s rows',
      { from: null, variation: 'b' },
      context,
      [
        'b7 1/1 r0 p0 0',
        'b8 1/0 r0 p0 null',
        'b9 0/0 r0 p0 null',
        'b10 0/0 r0 p0 null',
        'b11 0/0 r0 p0 null',
        'b12 0/0 r0 p0 null',
      ],
    ],
    ['variation=unassigned has no rows', { from: null, variation: 'unassigned' }, context, []],
    ['a campaign without a sequence has no rows', all, { ...context, sequence: [] }, []],
    [
      'a campaign without variation_b has only a rows',
      all,
      { ...context, sequence: { variation_a: q4Sequence().variation_a } },
      // b1 now follows variation_a; its event names no position, so its first step is overdue.
      [
        'a1 5/3 r1 p0 33.3',
        'a2 2/1 r0 p0 0',
        'a3 1/1 r0 p0 0',
        'a4 1/1 r0 p0 0',
        'a5 1/1 r1 p1 100',
        'a6 0/0 r0 p0 null',
      ],
    ],
  ])('%s', (_title, window, ctx, expected) => {
    expect(rows(data, window, ctx)).toEqual(expected);
  });
});
