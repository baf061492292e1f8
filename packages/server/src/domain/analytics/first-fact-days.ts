/**
 * The sums the analysis, daily stats and A/B cohorts count from: counted leads by cohort and
 * status, and for each fact the leads whose first event of it in the window fell on each UTC
 * day. The store works them out where the rows are (`ActivityStore.firstFactDays`, one SQL
 * aggregate rather than every event of the campaign); `firstFactDaysOf` gives the same from
 * the rows, and is what the store's answer is checked against.
 */
import type { CountingCohort, FirstFactDays } from '../../store/types.ts';
import type { EnrolmentStatus } from '../../store/records.ts';
import { type Fact, leadFacts } from './facts.ts';
import type { AnalyticsData } from './population.ts';

/** What a summary counts: a fact, or `meeting` (the lead's first booking of either kind). */
export type Counted = Fact | 'meeting';

/**
 * Adds `FirstFactDays` up one counted lead and one first time at a time: the reference below
 * and the memory store sum with it.
 */
export function firstFactDaysSum() {
  const statuses = new Map<string, FirstFactDays['statuses'][number]>();
  const days = new Map<string, FirstFactDays['days'][number]>();
  return {
    /** A counted lead. */
    lead(cohort: CountingCohort, status: EnrolmentStatus): void {
      const key = `${cohort} ${status}`;
      const row = statuses.get(key) ?? { cohort, status, leads: 0 };
      row.leads += 1;
      statuses.set(key, row);
    },
    /** A counted lead's first time of `fact` (an ISO time or milliseconds). */
    first(cohort: CountingCohort, fact: string, at: string | number): void {
      // The UTC day, whatever offset the time was written with.
      const day = new Date(at).toISOString().slice(0, 10);
      const key = `${cohort} ${fact} ${day}`;
      const row = days.get(key) ?? { cohort, fact, day, leads: 0 };
      row.leads += 1;
      days.set(key, row);
    },
    result(): FirstFactDays {
      return { statuses: [...statuses.values()], days: [...days.values()] };
    },
  };
}

/** `FirstFactDays` from a campaign's rows, as the store sums them. */
export function firstFactDaysOf(data: AnalyticsData, from: string | null): FirstFactDays {
  const sum = firstFactDaysSum();
  for (const lead of leadFacts(data, from)) {
    sum.lead(lead.cohort, lead.enrolment.status);
    for (const [fact, event] of Object.entries(lead.first)) if (event) sum.first(lead.cohort, fact, event.occurred_at);
    if (lead.meeting) sum.first(lead.cohort, 'meeting', lead.meeting.booked_at);
  }
  return sum.result();
}

/** The counts of the leads of some cohorts. */
export interface Tally {
  /** Counted leads. */
  enrolled: number;
  /** Counted leads with this enrolment status. */
  status(status: EnrolmentStatus): number;
  /** Counted leads having the fact (or a meeting) in the window. */
  count(fact: Counted): number;
  /** For one fact, counted leads by the UTC day of their first event of it. */
  byDay(fact: Counted): Map<string, number>;
}

/** The counts of the cohorts `included` says. */
export function tally(summary: FirstFactDays, included: (cohort: CountingCohort) => boolean): Tally {
  const statuses = summary.statuses.filter((row) => included(row.cohort));
  const days = summary.days.filter((row) => included(row.cohort));
  const sum = (rows: ReadonlyArray<{ leads: number }>) => rows.reduce((total, row) => total + row.leads, 0);
  return {
    enrolled: sum(statuses),
    status: (status) => sum(statuses.filter((row) => row.status === status)),
    count: (fact) => sum(days.filter((row) => row.fact === fact)),
    byDay(fact) {
      const perDay = new Map<string, number>();
      for (const row of days) if (row.fact === fact) perDay.set(row.day, (perDay.get(row.day) ?? 0) + row.leads);
      return perDay;
    },
  };
}
