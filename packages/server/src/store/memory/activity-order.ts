/**
 * The orders the memory activity store gives rows in, as the SQL store's `order by` does.
 * Timestamps are compared as instants: callers may write `Z` or `+00:00` forms, and the SQL
 * store compares `timestamptz` values, not their text.
 */
import type { ActivityEventRecord, EnrolmentWithLeadRecord } from '../records.ts';
import { withLeadDeletedAt } from './leads.ts';
import type { MemoryState } from './state.ts';
import { compareText } from './table.ts';

export const instant = (iso: string) => Date.parse(iso);

/** `occurred_at`, ties by `id`. */
export const oldestEventFirst = (a: ActivityEventRecord, b: ActivityEventRecord) =>
  instant(a.occurred_at) - instant(b.occurred_at) || compareText(a.id, b.id);

/** A campaign's enrolments with their leads' `deleted_at`, by `enrolled_at`, ties by `id` (`listEnrolments`). */
export function enrolmentsInOrder(state: MemoryState, campaignId: string): EnrolmentWithLeadRecord[] {
  return state.enrolments
    .whereIndexed('campaign', campaignId)
    .sort((a, b) => instant(a.enrolled_at) - instant(b.enrolled_at) || compareText(a.id, b.id))
    .map((enrolment) => withLeadDeletedAt(state, enrolment));
}
