/**
 * The personalization report's sums: how the placeholders of the messages counted were
 * filled. The store works them out where the rows are (`ActivityStore.placeholderFillSums`,
 * one SQL aggregate rather than every event of the campaign); `placeholderFillSumsOf` gives
 * the same from the rows, and is what the store's answer is checked against.
 */
import type { ActivityKind, PlaceholderFill } from '../../store/records.ts';
import type { PlaceholderFillSums } from '../../store/types.ts';
import { type Fact, leadFacts } from './facts.ts';
import type { AnalyticsData } from './population.ts';

/**
 * The messages the report counts: each lead's first email, connection request and LinkedIn
 * message, the analysis's sends. Each is the fact of that one kind (`factRules`), so the store
 * can be asked for them by kind.
 */
export const messageKindsCounted = [
  'email_sent',
  'connection_requested',
  'linkedin_message_sent',
] as const satisfies ReadonlyArray<Fact & ActivityKind>;

/**
 * Adds `PlaceholderFillSums` up one message at a time, in the counting order (the store's
 * interface says which): the reference below and the memory store sum with it.
 */
export function placeholderFillSum() {
  let messages = 0;
  const fields = new Map<string, PlaceholderFillSums['fields'][number]>();
  return {
    message(fills: unknown): void {
      messages += 1;
      const seen = new Set<string>();
      // Read as the SQL store reads the stored JSON: what the engine would not write (no array,
      // a fill that is no object or has no name) counts nowhere, and a source that is not text
      // is none.
      for (const fill of Array.isArray(fills) ? (fills as unknown[]) : []) {
        if (!isFill(fill)) continue;
        // A placeholder counts once per message, however often the text uses it.
        if (seen.has(fill.name)) continue;
        seen.add(fill.name);
        let field = fields.get(fill.name);
        if (!field) {
          const source = (typeof fill.source === 'string' ? fill.source : null) as PlaceholderFill['source'];
          field = { name: fill.name, source, uses: 0, filled: 0, fallback: 0, empty: 0 };
          fields.set(fill.name, field);
        }
        field.uses += 1;
        if (fill.fill === 'filled' || fill.fill === 'fallback' || fill.fill === 'empty') field[fill.fill] += 1;
      }
    },
    result(): PlaceholderFillSums {
      return { messages, fields: [...fields.values()] };
    },
  };
}

/** `PlaceholderFillSums` from a campaign's rows (enrolments in the store's order), as the store sums them. */
export function placeholderFillSumsOf(data: AnalyticsData, from: string | null): PlaceholderFillSums {
  const sum = placeholderFillSum();
  for (const lead of leadFacts(data, from)) {
    for (const kind of messageKindsCounted) {
      const event = lead.first[kind];
      if (event) sum.message(event.data.placeholders);
    }
  }
  return sum.result();
}

/** An object with a name: the least of a fill that counts. */
function isFill(value: unknown): value is PlaceholderFill {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}
