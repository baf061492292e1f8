/** `ActivityStore.placeholderFillSums` over the memory tables (see the interface for what it sums). */
import { placeholderFillSum } from '../../domain/analytics/placeholder-fill-sums.ts';
import { isCounted } from '../../domain/analytics/population.ts';
import type { ActivityEventRecord, ActivityKind } from '../records.ts';
import type { PlaceholderFillSums } from '../types.ts';
import { withLeadDeletedAt } from './leads.ts';
import type { MemoryState } from './state.ts';
import { compareText } from './table.ts';

const instant = (iso: string) => Date.parse(iso);

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
    const earlier =
      known === undefined ||
      instant(event.occurred_at) - instant(known.occurred_at) < 0 ||
      (instant(event.occurred_at) === instant(known.occurred_at) && compareText(event.id, known.id) < 0);
    if (earlier) firsts.set(key, event);
  }
  const sum = placeholderFillSum();
  const enrolments = state.enrolments
    .whereIndexed('campaign', campaignId)
    .sort((a, b) => instant(a.enrolled_at) - instant(b.enrolled_at) || compareText(a.id, b.id));
  for (const enrolment of enrolments) {
    if (!isCounted(withLeadDeletedAt(state, enrolment))) continue;
    // Each kind once, as the SQL store reads the list.
    for (const kind of new Set(query.kinds)) {
      const event = firsts.get(`${enrolment.id} ${kind}`);
      if (event) sum.message(event.data.placeholders);
    }
  }
  return sum.result();
}
