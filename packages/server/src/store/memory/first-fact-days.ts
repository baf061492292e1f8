/** `ActivityStore.firstFactDays` over the memory tables (see the interface for what it sums). */
import { matchesRule } from '../../domain/activity.ts';
import { firstFactDaysSum } from '../../domain/analytics/first-fact-days.ts';
import { isCounted } from '../../domain/analytics/population.ts';
import { checkFactNames, type CountingCohort, type FactRule, type FirstFactDays } from '../types.ts';
import { instant } from './activity-order.ts';
import { withLeadDeletedAt } from './leads.ts';
import type { MemoryState } from './state.ts';

export function memoryFirstFactDays(
  state: MemoryState,
  campaignId: string,
  query: { from: string | null; facts: Readonly<Record<string, FactRule>> },
): FirstFactDays {
  checkFactNames(query.facts);
  const start = query.from === null ? Number.NEGATIVE_INFINITY : instant(query.from);
  const sum = firstFactDaysSum();
  const cohorts = new Map<string, CountingCohort>();
  for (const row of state.enrolments.whereIndexed('campaign', campaignId)) {
    const enrolment = withLeadDeletedAt(state, row);
    if (!isCounted(enrolment)) continue;
    const cohort = enrolment.variation ?? 'unassigned';
    cohorts.set(enrolment.id, cohort);
    sum.lead(cohort, enrolment.status);
  }
  // Each counted lead's first time of each fact, then one count per (cohort, fact, day).
  const firsts = new Map<string, { enrolmentId: string; fact: string; at: number }>();
  const keep = (enrolmentId: string, fact: string, at: number) => {
    const key = `${enrolmentId} ${fact}`;
    const known = firsts.get(key);
    if (known === undefined || at < known.at) firsts.set(key, { enrolmentId, fact, at });
  };
  const rules = Object.entries(query.facts);
  // Filtered before the table copies the rows it gives.
  const inWindow = (enrolmentId: string, at: string) => instant(at) >= start && cohorts.has(enrolmentId);
  for (const event of state.activity.whereIndexed('campaign', campaignId, (e) =>
    inWindow(e.enrolment_id, e.occurred_at),
  )) {
    for (const [fact, rule] of rules)
      if (matchesRule(event, rule)) keep(event.enrolment_id, fact, instant(event.occurred_at));
  }
  for (const booking of state.bookings.where(
    (b) => b.campaign_id === campaignId && inWindow(b.enrolment_id, b.booked_at),
  )) {
    keep(booking.enrolment_id, 'meeting', instant(booking.booked_at));
  }
  for (const { enrolmentId, fact, at } of firsts.values())
    sum.first(cohorts.get(enrolmentId) as CountingCohort, fact, at);
  return sum.result();
}
