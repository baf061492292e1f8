/** `ActivityStore.firstFactDays` over the memory tables (see the interface for what it sums). */
import { matchesRule } from '../../domain/activity.ts';
import { isCounted } from '../../domain/analytics/population.ts';
import { checkFactNames, type CountingCohort, type FactRule, type FirstFactDays } from '../types.ts';
import { withLeadDeletedAt } from './leads.ts';
import type { MemoryState } from './state.ts';

const instant = (iso: string) => Date.parse(iso);

export function memoryFirstFactDays(
  state: MemoryState,
  campaignId: string,
  query: { from: string | null; facts: Readonly<Record<string, FactRule>> },
): FirstFactDays {
  checkFactNames(query.facts);
  const start = query.from === null ? Number.NEGATIVE_INFINITY : instant(query.from);
  const cohorts = new Map<string, CountingCohort>();
  const statuses = new Map<string, FirstFactDays['statuses'][number]>();
  for (const row of state.enrolments.whereIndexed('campaign', campaignId)) {
    const enrolment = withLeadDeletedAt(state, row);
    if (!isCounted(enrolment)) continue;
    const cohort = enrolment.variation ?? 'unassigned';
    cohorts.set(enrolment.id, cohort);
    const key = `${cohort} ${enrolment.status}`;
    const status = statuses.get(key) ?? { cohort, status: enrolment.status, leads: 0 };
    status.leads += 1;
    statuses.set(key, status);
  }
  // Each counted lead's first time of each fact, then one count per (cohort, fact, day).
  const firsts = new Map<string, { enrolmentId: string; fact: string; at: number }>();
  const keep = (enrolmentId: string, fact: string, at: number) => {
    const key = `${enrolmentId} ${fact}`;
    const known = firsts.get(key);
    if (known === undefined || at < known.at) firsts.set(key, { enrolmentId, fact, at });
  };
  const rules = Object.entries(query.facts);
  for (const event of state.activity.whereIndexed('campaign', campaignId)) {
    const at = instant(event.occurred_at);
    if (at < start || !cohorts.has(event.enrolment_id)) continue;
    for (const [fact, rule] of rules) if (matchesRule(event, rule)) keep(event.enrolment_id, fact, at);
  }
  for (const booking of state.bookings.where((b) => b.campaign_id === campaignId)) {
    const at = instant(booking.booked_at);
    if (at >= start && cohorts.has(booking.enrolment_id)) keep(booking.enrolment_id, 'meeting', at);
  }
  const days = new Map<string, FirstFactDays['days'][number]>();
  for (const { enrolmentId, fact, at } of firsts.values()) {
    const cohort = cohorts.get(enrolmentId) as CountingCohort;
    const day = new Date(at).toISOString().slice(0, 10);
    const key = `${cohort} ${fact} ${day}`;
    const row = days.get(key) ?? { cohort, fact, day, leads: 0 };
    row.leads += 1;
    days.set(key, row);
  }
  return { statuses: [...statuses.values()], days: [...days.values()] };
}
