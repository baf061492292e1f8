/**
 * Who analytics count, and under which arm. Every report starts here, so their numbers add
 * up to one another.
 */
import type { ActivityEvent } from '../activity.ts';
import type { VariationFilter } from '../date-filter.ts';
import type { BookingRecord, EnrolmentWithLeadRecord } from '../../store/records.ts';

export type Cohort = 'a' | 'b' | 'unassigned';
export const cohorts: readonly Cohort[] = ['a', 'b', 'unassigned'];

/** What a booking contributes to counts. */
export type CountedBooking = Pick<BookingRecord, 'id' | 'enrolment_id' | 'kind' | 'booked_at'>;

/** Everything the reports count from: a campaign's enrolments, events and bookings. */
export interface AnalyticsData {
  enrolments: readonly EnrolmentWithLeadRecord[];
  events: readonly ActivityEvent[];
  bookings: readonly CountedBooking[];
}

/** The window of a report: its start (null: all time) and the arm counted. */
export interface AnalyticsWindow {
  from: string | null;
  variation: VariationFilter;
}

/**
 * Whether an enrolment counts. A deleted lead's enrolment still does (its anonymised row is
 * the record of past activity, and the document keeps counts unchanged), also if deletion
 * ended the enrolment; a lead removed from the campaign while it lives no longer belongs to
 * the campaign and counts nowhere, so that every count stays within `enrolled`.
 */
export function isCounted(enrolment: EnrolmentWithLeadRecord): boolean {
  if (enrolment.removed_at === null) return true;
  return (
    enrolment.lead_deleted_at !== null && Date.parse(enrolment.removed_at) >= Date.parse(enrolment.lead_deleted_at)
  );
}

/** A lead's arm for counting: its enrolment's, `unassigned` until it gets one. */
export function cohortOf(enrolment: Pick<EnrolmentWithLeadRecord, 'variation'>): Cohort {
  return enrolment.variation ?? 'unassigned';
}

export function inVariation(cohort: Cohort, variation: VariationFilter): boolean {
  return variation === 'all' || variation === cohort;
}

/**
 * A rate in percent, rounded to one decimal; null when the denominator is zero. Computed
 * as a rounded per-mille so that binary fractions do not tip halves the wrong way.
 */
export function percent(numerator: number, denominator: number): number | null {
  if (denominator === 0) return null;
  return Math.round((numerator * 1000) / denominator) / 10;
}
