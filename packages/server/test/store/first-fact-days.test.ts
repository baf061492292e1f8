/**
 * `ActivityStore.firstFactDays` (the sums the analysis, daily stats and A/B cohorts count from)
 * against `firstFactDaysOf`, the same sums worked out from the rows, on every store: simulated
 * campaigns (replies of every class, out-of-office ones with a sentiment, leads removed and
 * deleted, meetings and confirmations) written through the store, read with windows that start
 * before, inside and after the activity, in `Z` and offset forms.
 */
import { expect, it } from 'vitest';
import { matchesRule } from '../../src/domain/activity.ts';
import { isCounted } from '../../src/domain/analytics/population.ts';
import { factRules, firstFactDaysOf } from '../../src/domain/analytics/index.ts';
import { firstFactDaysSum } from '../../src/domain/analytics/first-fact-days.ts';
import type { AnalyticsData } from '../../src/domain/analytics/index.ts';
import type { FactRule, FirstFactDays } from '../../src/store/types.ts';
import { reportWindows, storedCampaign } from '../support/stored-campaign.ts';
import { describeBackends } from '../support/backends.ts';

/** In one order, so that two summaries compare as sets of rows. */
function sorted(summary: FirstFactDays): FirstFactDays {
  const key = (row: object) => JSON.stringify(Object.values(row));
  return {
    statuses: [...summary.statuses].sort((a, b) => key(a).localeCompare(key(b))),
    days: [...summary.days].sort((a, b) => key(a).localeCompare(key(b))),
  };
}

describeBackends('ActivityStore.firstFactDays', (store) => {
  it('sums what firstFactDaysOf works out from the rows, for every window', async () => {
    for (const seed of [1, 2]) {
      const { campaignId, data } = await storedCampaign(store(), seed);
      for (const from of reportWindows) {
        const fromStore = await store().activity.firstFactDays(campaignId, { from, facts: factRules });
        expect(sorted(fromStore), `seed ${seed}, from ${from}`).toEqual(sorted(firstFactDaysOf(data, from)));
      }
      // Not empty: the simulated campaign has leads of every cohort, and replies of every class.
      const all = await store().activity.firstFactDays(campaignId, { from: null, facts: factRules });
      expect(new Set(all.statuses.map((row) => row.cohort))).toEqual(new Set(['a', 'b', 'unassigned']));
      for (const fact of ['positive', 'neutral', 'negative', 'ooo', 'meeting', 'email_positive', 'connected']) {
        expect(
          all.days.some((row) => row.fact === fact),
          fact,
        ).toBe(true);
      }
    }
  }, 120_000);

  it('applies any rule: a channel, an unclassified reply, no fact at all', async () => {
    const { campaignId, data } = await storedCampaign(store(), 3);
    const facts: Record<string, FactRule> = {
      unclassified: { kinds: ['reply_received'], replyClass: 'unclassified' },
      linkedin_ooo: { kinds: ['reply_received'], channel: 'linkedin', replyClass: 'ooo' },
      viewed: { kinds: ['profile_viewed'] },
      nothing: { kinds: [] },
    };
    const fromStore = await store().activity.firstFactDays(campaignId, { from: null, facts });
    const expected = firstFactDaysByRules(data, facts);
    expect(sorted(fromStore)).toEqual(sorted(expected));
    expect(fromStore.days.some((row) => row.fact === 'unclassified')).toBe(true);
    expect(fromStore.days.some((row) => row.fact === 'nothing')).toBe(false);
  }, 60_000);

  it('no facts: the statuses and the meetings', async () => {
    const { campaignId, data } = await storedCampaign(store(), 4);
    const fromStore = await store().activity.firstFactDays(campaignId, { from: null, facts: {} });
    expect(sorted(fromStore)).toEqual(sorted(firstFactDaysByRules(data, {})));
    expect(fromStore.days.length).toBeGreaterThan(0);
    expect(fromStore.days.every((row) => row.fact === 'meeting')).toBe(true);
  }, 60_000);

  it('refuses a fact named meeting, and more than 30 facts', async () => {
    const campaignId = crypto.randomUUID();
    const rule: FactRule = { kinds: ['email_sent'] };
    await expect(store().activity.firstFactDays(campaignId, { from: null, facts: { meeting: rule } })).rejects.toThrow(
      TypeError,
    );
    const many = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`fact${i}`, rule]));
    await expect(store().activity.firstFactDays(campaignId, { from: null, facts: many })).rejects.toThrow(/at most 30/);
    const thirty = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`fact${i}`, rule]));
    expect(await store().activity.firstFactDays(campaignId, { from: null, facts: thirty })).toEqual({
      statuses: [],
      days: [],
    });
  });

  it('an unknown campaign has nothing to sum', async () => {
    expect(await store().activity.firstFactDays(crypto.randomUUID(), { from: null, facts: factRules })).toEqual({
      statuses: [],
      days: [],
    });
  });
});

/**
 * The sums for rules of the test's own, worked out here from the rows (`firstFactDaysOf`
 * reads `factRules`); the statuses are the reference's, which no rule changes.
 */
function firstFactDaysByRules(data: AnalyticsData, facts: Record<string, FactRule>): FirstFactDays {
  const { statuses } = firstFactDaysOf(data, null);
  const counted = new Map(data.enrolments.filter(isCounted).map((e) => [e.id, e.variation ?? 'unassigned'] as const));
  const sum = firstFactDaysSum();
  const countFirsts = (fact: string, times: ReadonlyArray<{ enrolmentId: string; at: number }>) => {
    const first = new Map<string, number>();
    for (const { enrolmentId, at } of times) {
      if (counted.has(enrolmentId) && (first.get(enrolmentId) ?? Number.POSITIVE_INFINITY) > at)
        first.set(enrolmentId, at);
    }
    for (const [enrolmentId, at] of first) sum.first(counted.get(enrolmentId) as 'a' | 'b' | 'unassigned', fact, at);
  };
  for (const [fact, rule] of Object.entries(facts)) {
    const matching = data.events.filter((event) => matchesRule(event, rule));
    countFirsts(
      fact,
      matching.map((e) => ({ enrolmentId: e.enrolment_id, at: Date.parse(e.occurred_at) })),
    );
  }
  countFirsts(
    'meeting',
    data.bookings.map((b) => ({ enrolmentId: b.enrolment_id, at: Date.parse(b.booked_at) })),
  );
  return { statuses, days: sum.result().days };
}
