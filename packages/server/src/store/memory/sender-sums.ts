/**
 * `ActivityStore.senderSums` over the memory tables: the reference (`senderSumsOf`) over the
 * campaign's rows, which the memory store holds anyway.
 */
import { senderSumsOf } from '../../domain/analytics/senders.ts';
import type { SenderRules, SenderSum } from '../types.ts';
import { enrolmentsInOrder } from './activity-order.ts';
import type { MemoryState } from './state.ts';

export function memorySenderSums(
  state: MemoryState,
  campaignId: string,
  query: { from: string | null } & SenderRules,
): SenderSum[] {
  const enrolments = enrolmentsInOrder(state, campaignId);
  const events = state.activity.whereIndexed('campaign', campaignId);
  return senderSumsOf({ enrolments, events, bookings: [] }, query.from, query);
}
