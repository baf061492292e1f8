/** Daily stats: the analysis's counts on the UTC day of each lead's first event of a kind. */
import { describe, expect, it } from 'vitest';
import { type AnalyticsWindow, dailyStats } from '../../../src/domain/analytics/index.ts';
import { at, type DataBuilder, dataBuilder } from '../../support/analytics-data.ts';

const zero = {
  emails_sent: 0,
  emails_opened: 0,
  connection_requests: 0,
  connections_accepted: 0,
  linkedin_messages: 0,
  replies: 0,
  positive_replies: 0,
  meetings: 0,
};

describe('dailyStats', () => {
  it.each<[string, (b: DataBuilder) => DataBuilder, AnalyticsWindow, unknown[]]>([
    ['no events, no days', (b) => b.lead('e1'), { from: null, variation: 'all' }, []],
    [
      'one row per UTC day with events, oldest first; a day without events is left out',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(4))
          .event('e1', 'email_opened', at(2, 23, 30))
          .lead('e2')
          .event('e2', 'email_sent', '2026-11-03T23:30:00-02:00')
          .event('e2', 'connection_requested', at(2))
          .event('e2', 'connection_accepted', at(2, 8))
          .event('e2', 'linkedin_message_sent', at(4)),
      { from: null, variation: 'all' },
      [
        { ...zero, date: '2026-11-02', emails_opened: 1, connection_requests: 1, connections_accepted: 1 },
        { ...zero, date: '2026-11-04', emails_sent: 2, linkedin_messages: 1 },
      ],
    ],
    [
      'replies, positive replies and meetings on the day of each lead’s first one',
      (b) =>
        b
          .lead('e1')
          .reply('e1', at(3), 'email', { sentiment: 'neutral' })
          .reply('e1', at(4), 'email', { sentiment: 'positive' })
          .reply('e1', at(5), 'email', { sentiment: 'positive' })
          .booking('e1', 'confirmation', at(5))
          .booking('e1', 'meeting', at(6)),
      { from: null, variation: 'all' },
      [
        { ...zero, date: '2026-11-03', replies: 1 },
        { ...zero, date: '2026-11-04', positive_replies: 1 },
        { ...zero, date: '2026-11-05', meetings: 1 },
      ],
    ],
    [
      'only the window, and only the arm asked for',
      (b) =>
        b
          .lead('a1', { variation: 'a' })
          .event('a1', 'email_sent', at(2))
          .event('a1', 'email_sent', at(6))
          .lead('b1', { variation: 'b' })
          .event('b1', 'email_sent', at(6)),
      { from: at(5), variation: 'a' },
      [{ ...zero, date: '2026-11-06', emails_sent: 1 }],
    ],
  ])('%s', (_title, build, window, expected) => {
    expect(dailyStats(build(dataBuilder()).data(), window)).toEqual(expected);
  });
});
