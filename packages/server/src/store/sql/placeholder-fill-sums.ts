/**
 * `ActivityStore.placeholderFillSums` in one aggregate query (see the interface for what it
 * sums): a row per placeholder name back instead of every event of the campaign. Reading the
 * events was most of the personalization report's time on PGlite (decision 0023).
 */
import type { ActivityKind } from '../records.ts';
import type { PlaceholderFillSums } from '../types.ts';
import { isCountedSql } from './analytics-sql.ts';
import type { SqlClient } from './client.ts';

type Field = PlaceholderFillSums['fields'][number];

interface Row {
  part: 'messages' | 'field';
  /** Null on the row that counts the messages. */
  name: string | null;
  source: Field['source'] | null;
  uses: number;
  filled: number;
  fallback: number;
  empty: number;
}

export async function sqlPlaceholderFillSums(
  client: SqlClient,
  campaignId: string,
  query: { from: string | null; kinds: readonly ActivityKind[] },
): Promise<PlaceholderFillSums> {
  // Each lead's first event of each kind, of the counted leads, and of each of those messages
  // its first fill of each name; then a row per name, with the source of the name's first fill
  // in the counting order. The firsts come from the campaign's events alone and meet their
  // enrolments by primary key only (an event's enrolment is of the event's campaign): joined to
  // a ranked list of the counted leads, or given the campaign's enrolments to scan, the planner
  // (with no statistics) compared every first with every enrolment (decision 0023).
  const rows = await client.query<Row>(
    `with firsts as (
       select distinct on (ev.enrolment_id, ev.kind) ev.enrolment_id, ev.kind, ev.data
         from activity_events ev
        where ev.campaign_id = $1 and ($2::timestamptz is null or ev.occurred_at >= $2)
          and ev.kind = any($3::text[])
        order by ev.enrolment_id, ev.kind, ev.occurred_at, ev.id
     ),
     messages as (
       select e.enrolled_at, e.id, array_position($3::text[], f.kind) as kind_rank,
              case when jsonb_typeof(f.data->'placeholders') = 'array' then f.data->'placeholders'
                   else '[]'::jsonb end as fills
         from firsts f join enrolments e on e.id = f.enrolment_id join leads l on l.id = e.lead_id
        where ${isCountedSql}
     ),
     fills as (
       select distinct on (m.id, m.kind_rank, p.fill->>'name')
              m.enrolled_at, m.id, m.kind_rank, p.ord, p.fill->>'name' as name,
              case when jsonb_typeof(p.fill->'source') = 'string' then p.fill->>'source' end as source,
              p.fill->>'fill' as fill
         from messages m cross join lateral jsonb_array_elements(m.fills) with ordinality as p(fill, ord)
        where jsonb_typeof(p.fill->'name') = 'string'
        order by m.id, m.kind_rank, p.fill->>'name', p.ord
     )
     select 'messages' as part, null as name, null as source, count(*)::int as uses, 0 as filled, 0 as fallback,
            0 as empty
       from messages
     union all
     select 'field', name, (array_agg(source order by enrolled_at, id, kind_rank, ord))[1], count(*)::int,
            (count(*) filter (where fill = 'filled'))::int, (count(*) filter (where fill = 'fallback'))::int,
            (count(*) filter (where fill = 'empty'))::int
       from fills group by name`,
    [campaignId, query.from, query.kinds],
  );
  const sums: PlaceholderFillSums = { messages: 0, fields: [] };
  for (const { part, name, source, uses, filled, fallback, empty } of rows) {
    if (part === 'messages') sums.messages = uses;
    else
      sums.fields.push({
        name: name as string,
        source: source as Field['source'],
        uses,
        filled,
        fallback,
        empty,
      });
  }
  return sums;
}
