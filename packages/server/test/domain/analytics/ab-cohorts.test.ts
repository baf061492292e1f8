/** A/B cohorts: each arm's `by_variation` funnel of the analysis. */
import { describe, expect, it } from 'vitest';
import { abCohorts } from '../../../src/domain/analytics/index.ts';
import { at, dataBuilder } from '../../support/analytics-data.ts';

describe('abCohorts', () => {
  it.each([
    [
      'three cohorts, a, b and unassigned, also without leads',
      dataBuilder(),
      null,
      [
        {
          variation: 'a',
          leads: 0,
          contacted: 0,
          replied: 0,
          positive: 0,
          meetings: 0,
          reply_rate_pct: null,
          positive_rate_pct: null,
          meeting_rate_pct: null,
        },
        {
          variation: 'b',
          leads: 0,
          contacted: 0,
          replied: 0,
          positive: 0,
          meetings: 0,
          reply_rate_pct: null,
          positive_rate_pct: null,
          meeting_rate_pct: null,
        },
        {
          variation: 'unassigned',
          leads: 0,
          contacted: 0,
          replied: 0,
          positive: 0,
          meetings: 0,
          reply_rate_pct: null,
          positive_rate_pct: null,
          meeting_rate_pct: null,
        },
      ],
    ],
    [
      'each arm’s funnel over the window',
      dataBuilder()
        .lead('a1', { variation: 'a' })
        .event('a1', 'email_sent', at(2))
        .reply('a1', at(3), 'email', { sentiment: 'positive' })
        .booking('a1', 'meeting', at(4))
        .lead('a2', { variation: 'a' })
        .event('a2', 'email_sent', at(2))
        .lead('a3', { variation: 'a' })
        .event('a3', 'email_sent', at(1))
        .lead('b1', { variation: 'b' })
        .event('b1', 'connection_requested', at(3))
        .reply('b1', at(4), 'linkedin', { sentiment: 'negative' })
        .lead('u1', { variation: null, status: 'not_contacted' }),
      at(2),
      [
        {
          variation: 'a',
          leads: 3,
          contacted: 2,
          replied: 1,
          positive: 1,
          meetings: 1,
          reply_rate_pct: 50,
          positive_rate_pct: 50,
          meeting_rate_pct: 100,
        },
        {
          variation: 'b',
          leads: 1,
          contacted: 1,
          replied: 1,
          positive: 0,
          meetings: 0,
          reply_rate_pct: 100,
          positive_rate_pct: 0,
          meeting_rate_pct: null,
        },
        {
          variation: 'unassigned',
          leads: 1,
          contacted: 0,
          replied: 0,
          positive: 0,
          meetings: 0,
          reply_rate_pct: null,
          positive_rate_pct: null,
          meeting_rate_pct: null,
        },
      ],
    ],
  ])('%s', (_title, builder, from, expected) => {
    expect(abCohorts(builder.data(), from)).toEqual(expected);
  });
});
