/**
 * `ActivityStore.senderSums` over the memory tables: the reference (`senderSumsOf`) over the
 * campaign's rows, which the memory store holds anyway.
 */
import { senderSumsOf } from '../../domain/analytics/senders.ts';
import { instant } from '../../domain/activity.ts';
import type { SenderRules, SenderSum } from '../types.ts';
import { withLeadDeletedAt } from './leads.ts';
import type { MemoryState } from './state.ts';
import { compareText } from './table.ts';

export function memorySenderSums(
  state: MemoryState,
  campaignId: string,
  query: { from: string | null } & SenderRules,
): SenderSum[] {
  const enrolments = state.enrolments
    .whereIndexed('campaign', campaignId)
    .sort((a, b) => instant(a.enrolled_at) - instant(b.enrolled_at) || compareText(a.id, b.id))
    .map((enrolment) => withLeadDeletedAt(state, enrolment));
  const events = state.activity.whereIndexed('campaign', campaignId);
  return senderSumsOf({ enrolments, events, bookings: [] }, query.from, query);
}
