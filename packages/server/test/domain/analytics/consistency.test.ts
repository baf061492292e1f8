/**
 * The analytics reports agree with one another on one rich dataset (a campaign played out
 * by a simulated engine): the identities the OpenAPI document states, for several windows
 * and every arm.
 */
import { describe, expect, it } from 'vitest';
import {
  abCohorts,
  type AnalyticsWindow,
  campaignAnalysis,
  dailyStats,
  personalizationQuality,
  senderBreakdown,
  stepFunnel,
  stepFunnelKinds,
} from '../../../src/domain/analytics/index.ts';
import { isCounted } from '../../../src/domain/analytics/population.ts';
import type { VariationFilter } from '../../../src/domain/date-filter.ts';
import type { Sequence } from '../../../src/store/records.ts';
import { q4Sequence } from '../../support/activity.ts';
import { simulateCampaign } from '../../support/simulated-campaign.ts';

/** Two arms whose conditionals nest two deep, with steps after the outer conditional. */
function nestedSequence(): Sequence {
  const arm = (n: number) => [
    { id: n, type: 'view_profile' as const },
    { id: n + 1, type: 'linkedin_connection' as const, message: 'Hi {first_name}', delay: 1 },
    {
      id: n + 2,
      type: 'conditional' as const,
      delay: 2,
      branches: {
        yes: [{ id: n + 3, type: 'linkedin_message' as const, message: '{icebreaker}', delay: 1 }],
        no: [
          { id: n + 4, type: 'email' as const, subject: 'Hi {first_name}', content: '{company}', delay: 1 },
          { id: n + 5, type: 'linkedin_connection' as const, delay: 2 },
          {
            id: n + 6,
            type: 'conditional' as const,
            delay: 3,
            branches: {
              yes: [{ id: n + 7, type: 'linkedin_message' as const, message: 'Thanks', delay: 1 }],
              no: [],
            },
          },
        ],
      },
    },
    { id: n + 8, type: 'email' as const, subject: 'Last note', content: '{first_name}, {company}', delay: 2 },
  ];
  return { variation_a: arm(1), variation_b: arm(20) };
}

const accounts = [
  { id: 'acc_li_1', platform: 'linkedin' as const, label: 'Sam' },
  { id: 'acc_em_1', platform: 'email' as const, label: 'sam@example.com' },
  { id: 'acc_li_2', platform: 'linkedin' as const, label: 'Lena' },
  { id: 'acc_em_2', platform: 'email' as const, label: 'lena@example.com' },
];

const windows: Array<string | null> = [
  null,
  '2026-11-05T00:00:00.000Z',
  '2026-11-10T12:00:00.000Z',
  '2026-11-19T00:00:00.000Z',
];
const arms = ['a', 'b', 'unassigned'] as const;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe.each([
  ['the Q4 Founders sequence', q4Sequence(), 1],
  ['a sequence with nested conditionals', nestedSequence(), 2],
])('analytics consistency on %s', (_title, sequence, seed) => {
  const data = simulateCampaign({ seed, leads: 240, sequence });
  const context = { sequence, winner: null, activatedAt: data.activatedAt, now: data.now };

  it('is a rich dataset (so that the identities below say something)', () => {
    const analysis = campaignAnalysis(data, { from: null, variation: 'all' });
    expect(analysis.by_variation.a.funnel.contacted).toBeGreaterThan(20);
    expect(analysis.by_variation.b.funnel.contacted).toBeGreaterThan(20);
    expect(analysis.funnel.replied).toBeGreaterThan(10);
    expect(analysis.funnel.meetings).toBeGreaterThan(0);
    expect(analysis.replies.ooo).toBeGreaterThan(0);
    expect(analysis.channels.linkedin.connected_leads).toBeGreaterThan(analysis.channels.linkedin.accepted ?? 0);
    expect(analysis.leads.paused).toBeGreaterThan(0);
    expect(data.enrolments.some((e) => e.removed_at !== null)).toBe(true);
  });

  describe.each(windows)('window from %s', (from) => {
    const all = campaignAnalysis(data, { from, variation: 'all' });

    it('by_variation adds up to the whole, and each arm filter gives that arm’s entry', () => {
      for (const group of ['leads', 'funnel', 'replies'] as const) {
        const whole = all[group] as Record<string, number | null>;
        for (const [field, value] of Object.entries(whole)) {
          if (field.endsWith('_pct')) continue;
          const parts = arms.map((arm) => (all.by_variation[arm][group] as Record<string, number | null>)[field] ?? 0);
          expect(sum(parts), `${group}.${field}`).toBe(value);
        }
      }
      for (const arm of arms) {
        const one = campaignAnalysis(data, { from, variation: arm });
        expect({ leads: one.leads, funnel: one.funnel, replies: one.replies }).toEqual(all.by_variation[arm]);
        expect(one.by_variation).toEqual(all.by_variation);
      }
      expect(all.replies.total).toBe(all.funnel.replied);
    });

    it.each<VariationFilter>(['all', 'a', 'b', 'unassigned'])(
      'daily stats add up to the analysis (variation=%s)',
      (variation) => {
        const window: AnalyticsWindow = { from, variation };
        const analysis = campaignAnalysis(data, window);
        const days = dailyStats(data, window);
        const total = (column: keyof (typeof days)[number]) => sum(days.map((day) => Number(day[column])));
        expect({
          emails_sent: total('emails_sent'),
          emails_opened: total('emails_opened'),
          connection_requests: total('connection_requests'),
          connections_accepted: total('connections_accepted'),
          linkedin_messages: total('linkedin_messages'),
          replies: total('replies'),
          positive_replies: total('positive_replies'),
          meetings: total('meetings'),
        }).toEqual({
          emails_sent: analysis.channels.email.sent,
          emails_opened: analysis.channels.email.opened,
          connection_requests: analysis.channels.linkedin.requests,
          connections_accepted: analysis.channels.linkedin.accepted,
          linkedin_messages: analysis.channels.linkedin.messages,
          replies: analysis.funnel.replied,
          positive_replies: analysis.funnel.positive,
          meetings: analysis.funnel.meetings,
        });
        expect(days.map((day) => day.date)).toEqual([...new Set(days.map((day) => day.date))].sort());
        if (from !== null) expect(days.every((day) => day.date >= from.slice(0, 10))).toBe(true);
      },
    );

    it('the step funnel’s replies add up to each arm’s, and its runs to the sends', () => {
      const rows = stepFunnel(data, { from, variation: 'all' }, context);
      for (const arm of ['a', 'b'] as const) {
        const mine = rows.filter((row) => row.variation === arm);
        expect(sum(mine.map((row) => row.replied)), `${arm} replied`).toBe(all.by_variation[arm].funnel.replied);
        expect(sum(mine.map((row) => row.positive)), `${arm} positive`).toBe(all.by_variation[arm].funnel.positive);
      }
      for (const row of rows) expect(row.completed).toBeLessThanOrEqual(row.reached);
      // Counted straight from the events: leads and the distinct steps they ran in the window.
      const counted = new Set(data.enrolments.filter(isCounted).map((e) => e.id));
      const runs = (kinds: string[]) => {
        const perLead = new Map<string, Set<number>>();
        for (const event of data.events) {
          if (!kinds.includes(event.kind) || !counted.has(event.enrolment_id)) continue;
          if (from !== null && event.occurred_at < from) continue;
          const steps = perLead.get(event.enrolment_id) ?? new Set<number>();
          steps.add(event.step_id as number);
          perLead.set(event.enrolment_id, steps);
        }
        return { leads: perLead.size, extra: sum([...perLead.values()].map((steps) => steps.size - 1)) };
      };
      const completed = (type: string) => sum(rows.filter((row) => row.type === type).map((row) => row.completed));
      const emails = runs(['email_sent']);
      expect(emails.leads).toBe(all.channels.email.sent);
      expect(completed('email')).toBe((all.channels.email.sent ?? 0) + emails.extra);
      const requests = runs(['connection_requested']);
      const already = runs(['already_connected']);
      expect(requests.leads).toBe(all.channels.linkedin.requests);
      expect(completed('linkedin_connection')).toBe(requests.leads + requests.extra + already.leads + already.extra);
      const messages = runs(['linkedin_message_sent']);
      expect(completed('linkedin_message')).toBe((all.channels.linkedin.messages ?? 0) + messages.extra);
      expect(stepFunnel(data, { from, variation: 'unassigned' }, context)).toEqual([]);
      expect(stepFunnel(data, { from, variation: 'b' }, context)).toEqual(rows.filter((row) => row.variation === 'b'));
    });

    it('the step funnel counts the same from the events of stepFunnelKinds alone, without bookings', () => {
      // What the route reads (ActivityStore.listProgressEvents): opens and bookings left out.
      const read = { ...data, events: data.events.filter((e) => stepFunnelKinds.includes(e.kind)), bookings: [] };
      expect(read.events.length).toBeLessThan(data.events.length);
      for (const variation of ['all', 'a', 'b'] as const) {
        expect(stepFunnel(read, { from, variation }, context), variation).toEqual(
          stepFunnel(data, { from, variation }, context),
        );
      }
    });

    it('senders add up to the sends and the replies of each channel', () => {
      const rows = senderBreakdown(data, from, ['acc_em_1', 'acc_li_1'], accounts);
      const { email, linkedin } = all.channels;
      expect(sum(rows.map((row) => row.sent))).toBe(
        (email.sent ?? 0) + (linkedin.requests ?? 0) + (linkedin.messages ?? 0),
      );
      const of = (platform: string, field: 'replied_leads' | 'positive_leads') =>
        sum(rows.filter((row) => row.platform === platform).map((row) => row[field]));
      expect(of('email', 'replied_leads')).toBe(email.replied_leads);
      expect(of('email', 'positive_leads')).toBe(email.positive_leads);
      expect(of('linkedin', 'replied_leads')).toBe(linkedin.replied_leads);
      expect(of('linkedin', 'positive_leads')).toBe(linkedin.positive_leads);
      expect(rows.slice(0, 2).map((row) => row.account_id)).toEqual(['acc_em_1', 'acc_li_1']);
    });

    it('personalization counts the same messages', () => {
      const quality = personalizationQuality(data, from);
      const { email, linkedin } = all.channels;
      expect(quality.messages_sent).toBe((email.sent ?? 0) + (linkedin.requests ?? 0) + (linkedin.messages ?? 0));
      for (const field of quality.fields) {
        expect(field.filled + field.fallback + field.empty).toBe(field.uses);
        expect(field.uses).toBeLessThanOrEqual(quality.messages_sent);
      }
    });

    it('the A/B cohorts are the by_variation funnels and add up to the funnel', () => {
      const cohorts = abCohorts(data, from);
      expect(cohorts.map((c) => c.variation)).toEqual(['a', 'b', 'unassigned']);
      for (const cohort of cohorts) {
        const { funnel } = all.by_variation[cohort.variation];
        expect(cohort).toEqual({
          variation: cohort.variation,
          leads: funnel.enrolled,
          contacted: funnel.contacted,
          replied: funnel.replied,
          positive: funnel.positive,
          meetings: funnel.meetings,
          reply_rate_pct: funnel.reply_rate_pct,
          positive_rate_pct: funnel.positive_rate_pct,
          meeting_rate_pct: funnel.meeting_rate_pct,
        });
      }
      for (const field of ['leads', 'contacted', 'replied', 'positive', 'meetings'] as const) {
        const funnelField = field === 'leads' ? 'enrolled' : field;
        expect(sum(cohorts.map((c) => c[field]))).toBe(all.funnel[funnelField]);
      }
    });
  });
});
