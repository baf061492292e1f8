/** `ActivityStore.placeholderFillSums` over the memory tables (see the interface for what it sums). */
import { placeholderFillSum } from '../../domain/analytics/placeholder-fill-sums.ts';
import { isCounted } from '../../domain/analytics/population.ts';
import type { ActivityEventRecord, ActivityKind } from '../records.ts';
import type { PlaceholderFillSums } from '../types.ts';
import { enrolmentsInOrder, instant, oldestEventFirst } from './activity-order.ts';
import type { MemoryState } from './state.ts';

export function memoryPlaceholderFillSums(
  state: MemoryState,
  campaignId: string,
  query: { from: string | null; kinds: readonly ActivityKind[] },
): PlaceholderFillSums {
  const start = query.from === null ? Number.NEGATIVE_INFINITY : instant(query.from);
  // Each lead's first event of each kind in the window (oldest, ties by ID).
  const firsts = new Map<string, ActivityEventRecord>();
  for (const event of state.activity.whereIndexed(
    'campaign',
    campaignId,
    (e) => query.kinds.includes(e.kind) && instant(e.occurred_at) >= start,
  )) {
    const key = `${event.enrolment_id} ${event.kind}`;
    const known = firsts.get(key);
    if (known === undefined || oldestEventFirst(event, known) < 0) firsts.set(key, event);
  }
  const sum = placeholderFillSum();
  for (const enrolment of enrolmentsInOrder(state, campaignId)) {
    if (!isCounted(enrolment)) continue;
    // Each kind once, as the SQL store reads the list.
    for (const kind of new Set(query.kinds)) {
      const event = firsts.get(`${enrolment.id} ${kind}`);
      if (event) sum.message(event.data.placeholders);
    }
  }
  return sum.result();
}
