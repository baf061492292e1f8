/** The campaign analysis: each group, the window, the arm filter and `by_variation`. */
import { describe, expect, it } from 'vitest';
import { campaignAnalysis } from '../../../src/domain/analytics/index.ts';
import { percent } from '../../../src/domain/analytics/population.ts';
import type { AnalyticsWindow } from '../../../src/domain/analytics/index.ts';
import { at, type DataBuilder, dataBuilder } from '../../support/analytics-data.ts';

const all: AnalyticsWindow = { from: null, variation: 'all' };

describe('percent', () => {
  it.each([
    [0, 0, null],
    [3, 0, null],
    [0, 5, 0],
    [8, 36, 22.2],
    [4, 36, 11.1],
    [2, 3, 66.7],
    [1, 8, 12.5],
    [1, 6, 16.7],
    [20, 36, 55.6],
    [1, 1, 100],
    [3, 2, 150],
  ])('%i / %i is %j', (numerator, denominator, expected) => {
    expect(percent(numerator, denominator)).toBe(expected);
  });
});

describe('campaignAnalysis', () => {
  it('answers zero counts and null rates for a campaign without leads', () => {
    expect(campaignAnalysis(dataBuilder().data(), all)).toEqual({
      leads: { active: 0, completed: 0, enrolled: 0, not_contacted: 0, paused: 0 },
      funnel: {
        contacted: 0,
        enrolled: 0,
        replied: 0,
        positive: 0,
        meetings: 0,
        reply_rate_pct: null,
        positive_rate_pct: null,
        meeting_rate_pct: null,
      },
      replies: { total: 0, positive: 0, neutral: 0, negative: 0, ooo: 0 },
      channels: {
        email: { sent: 0, opened: 0, open_rate_pct: null, replied_leads: 0, positive_leads: 0 },
        linkedin: {
          requests: 0,
          accepted: 0,
          accept_rate_pct: null,
          connected_leads: 0,
          messages: 0,
          replied_leads: 0,
          positive_leads: 0,
        },
      },
      window: { from: null, to: null, variation: 'all' },
      by_variation: expect.objectContaining({
        a: expect.any(Object),
        b: expect.any(Object),
        unassigned: expect.any(Object),
      }),
    });
  });

  it.each<[string, (b: DataBuilder) => DataBuilder, AnalyticsWindow, Record<string, unknown>]>([
    [
      'groups leads by enrolment status, whatever the window',
      (b) =>
        b
          .lead('e1', { status: 'active' })
          .lead('e2', { status: 'paused' })
          .lead('e3', { status: 'completed' })
          .lead('e4', { status: 'not_contacted', variation: null })
          .lead('e5', { status: 'active', enrolled_at: at(1) }),
      { from: at(20), variation: 'all' },
      {
        leads: { active: 2, completed: 1, enrolled: 5, not_contacted: 1, paused: 1 },
        funnel: expect.objectContaining({ enrolled: 5 }),
      },
    ],
    [
      'counts a lead once per kind, at its first event of the kind',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(2))
          .event('e1', 'email_sent', at(5))
          .event('e1', 'email_opened', at(2, 10))
          .event('e1', 'email_opened', at(6)),
      all,
      {
        channels: expect.objectContaining({
          email: expect.objectContaining({ sent: 1, opened: 1, open_rate_pct: 100 }),
        }),
      },
    ],
    [
      'counts the first event of a kind inside the window, not before it',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(2))
          .event('e1', 'email_sent', at(5))
          .lead('e2')
          .event('e2', 'email_sent', at(2))
          .lead('e3')
          .event('e3', 'email_sent', at(4)),
      { from: at(4), variation: 'all' },
      { funnel: expect.objectContaining({ contacted: 2, enrolled: 3 }) },
    ],
    [
      'contacted: a first email, connection request or LinkedIn message, not a profile view',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'profile_viewed', at(2))
          .lead('e2')
          .event('e2', 'connection_requested', at(2))
          .lead('e3')
          .event('e3', 'linkedin_message_sent', at(2))
          .event('e3', 'email_sent', at(3))
          .lead('e4')
          .event('e4', 'already_connected', at(2)),
      all,
      { funnel: expect.objectContaining({ contacted: 2 }) },
    ],
    [
      'replies by class: out-of-office counts there only, unanalysed counts as a reply only',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'email_sent', at(2))
          .reply('e1', at(3), 'email', { sentiment: 'positive' })
          .reply('e1', at(4), 'email', { sentiment: 'negative' })
          .lead('e2')
          .event('e2', 'email_sent', at(2))
          .reply('e2', at(3), 'email', { sentiment: 'positive', out_of_office: true })
          .lead('e3')
          .event('e3', 'email_sent', at(2))
          .reply('e3', at(3), 'linkedin', { sentiment: null })
          .lead('e4')
          .event('e4', 'email_sent', at(2))
          .reply('e4', at(3), 'linkedin', { sentiment: 'neutral' }),
      all,
      {
        replies: { total: 4, positive: 1, neutral: 1, negative: 1, ooo: 1 },
        funnel: expect.objectContaining({
          contacted: 4,
          replied: 4,
          positive: 1,
          reply_rate_pct: 100,
          positive_rate_pct: 25,
        }),
      },
    ],
    [
      'replies and positive replies by channel',
      (b) =>
        b
          .lead('e1')
          .reply('e1', at(3), 'email', { sentiment: 'positive' })
          .reply('e1', at(4), 'linkedin', { sentiment: 'neutral' })
          .lead('e2')
          .reply('e2', at(3), 'linkedin', { sentiment: 'positive' }),
      all,
      {
        channels: {
          email: expect.objectContaining({ replied_leads: 1, positive_leads: 1 }),
          linkedin: expect.objectContaining({ replied_leads: 2, positive_leads: 1 }),
        },
      },
    ],
    [
      'LinkedIn: requests, acceptances, connections (already connected too) and messages',
      (b) =>
        b
          .lead('e1')
          .event('e1', 'connection_requested', at(2))
          .event('e1', 'connection_accepted', at(3))
          .event('e1', 'linkedin_message_sent', at(4))
          .lead('e2')
          .event('e2', 'connection_requested', at(2))
          .lead('e3')
          .event('e3', 'connection_requested', at(2))
          .lead('e4')
          .event('e4', 'already_connected', at(2))
          .event('e4', 'linkedin_message_sent', at(3)),
      all,
      {
        channels: expect.objectContaining({
          linkedin: {
            requests: 3,
            accepted: 1,
            accept_rate_pct: 33.3,
            connected_leads: 2,
            messages: 2,
            replied_leads: 0,
            positive_leads: 0,
          },
        }),
      },
    ],
    [
      'meetings: leads with a booking of either kind inside the window',
      (b) =>
        b
          .lead('e1')
          .reply('e1', at(2), 'email', { sentiment: 'positive' })
          .booking('e1', 'meeting', at(3))
          .booking('e1', 'confirmation', at(4))
          .lead('e2')
          .reply('e2', at(2), 'email', { sentiment: 'positive' })
          .booking('e2', 'confirmation', at(5))
          .lead('e3')
          .booking('e3', 'meeting', at(1)),
      { from: at(2), variation: 'all' },
      { funnel: expect.objectContaining({ positive: 2, meetings: 2, meeting_rate_pct: 100 }) },
    ],
    [
      'a lead removed from the campaign counts nowhere; a deleted lead counts as before',
      (b) =>
        b
          .lead('e1', { removed_at: at(5) })
          .event('e1', 'email_sent', at(2))
          .lead('e2', { lead_deleted_at: at(5) })
          .event('e2', 'email_sent', at(2))
          .lead('e3', { lead_deleted_at: at(5), removed_at: at(5) })
          .event('e3', 'email_sent', at(2))
          .event('ghost', 'email_sent', at(2)),
      all,
      { leads: expect.objectContaining({ enrolled: 2 }), funnel: expect.objectContaining({ contacted: 2 }) },
    ],
    [
      'the window: its start, up to now, and the arm applied',
      (b) => b,
      { from: '2026-10-09T18:00:00.000Z', variation: 'b' },
      { window: { from: '2026-10-09T18:00:00.000+00:00', to: null, variation: 'b' } },
    ],
  ])('%s', (_title, build, window, expected) => {
    expect(campaignAnalysis(build(dataBuilder()).data(), window)).toMatchObject(expected);
  });

  describe('arms', () => {
    const data = dataBuilder()
      .lead('a1', { variation: 'a' })
      .event('a1', 'email_sent', at(2))
      .reply('a1', at(3), 'email', { sentiment: 'positive' })
      .lead('a2', { variation: 'a', status: 'completed' })
      .event('a2', 'connection_requested', at(2))
      .lead('b1', { variation: 'b', status: 'paused' })
      .event('b1', 'email_sent', at(2))
      .reply('b1', at(3), 'email', { sentiment: 'negative' })
      .lead('u1', { variation: null, status: 'not_contacted' })
      .data();

    it('by_variation always carries the three arms, summing to the whole', () => {
      const analysis = campaignAnalysis(data, all);
      expect(analysis.by_variation.a.funnel).toMatchObject({ enrolled: 2, contacted: 2, replied: 1, positive: 1 });
      expect(analysis.by_variation.b.funnel).toMatchObject({ enrolled: 1, contacted: 1, replied: 1, positive: 0 });
      expect(analysis.by_variation.unassigned).toMatchObject({
        leads: { active: 0, completed: 0, enrolled: 1, not_contacted: 1, paused: 0 },
        funnel: { contacted: 0, reply_rate_pct: null },
      });
      expect(analysis.funnel).toMatchObject({ enrolled: 4, contacted: 3, replied: 2, positive: 1 });
    });

    it.each(['a', 'b', 'unassigned'] as const)('variation=%s restricts every group to the arm', (arm) => {
      const analysis = campaignAnalysis(data, { from: null, variation: arm });
      const { leads, funnel, replies } = analysis.by_variation[arm];
      expect({ leads: analysis.leads, funnel: analysis.funnel, replies: analysis.replies }).toEqual({
        leads,
        funnel,
        replies,
      });
      expect(analysis.by_variation).toEqual(campaignAnalysis(data, all).by_variation);
      expect(analysis.channels.email.sent).toBe(arm === 'unassigned' ? 0 : 1);
    });
  });
});
