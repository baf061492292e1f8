/**
 * `ActivityStore.placeholderFillSums` in one aggregate query (see the interface for what it
 * sums): a row per placeholder name back instead of every event of the campaign. Reading the
 * events was most of the personalization report's time on PGlite (decision 0023).
 */
import type { ActivityKind } from '../records.ts';
import type { PlaceholderFillSums } from '../types.ts';
import { rankedCountedOf } from './analytics-sql.ts';
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
  // Counted leads ranked in the counting order, each one's first event of each kind, and of
  // each of those messages its first fill of each name; then a row per name, with the source
  // of the name's first fill in that order.
  const rows = await client.query<Row>(
    `with counted as (
       ${rankedCountedOf('$1')}
     ),
     firsts as (
       select distinct on (ev.enrolment_id, ev.kind) ev.enrolment_id, ev.kind, ev.data
         from activity_events ev
        where ev.campaign_id = $1 and ($2::timestamptz is null or ev.occurred_at >= $2)
          and ev.kind = any($3::text[])
        order by ev.enrolment_id, ev.kind, ev.occurred_at, ev.id
     ),
     messages as (
       select c.rank, array_position($3::text[], f.kind) as kind_rank,
              case when jsonb_typeof(f.data->'placeholders') = 'array' then f.data->'placeholders'
                   else '[]'::jsonb end as fills
         from firsts f join counted c on c.id = f.enrolment_id
     ),
     fills as (
       select distinct on (m.rank, m.kind_rank, p.fill->>'name')
              m.rank, m.kind_rank, p.ord, p.fill->>'name' as name, p.fill->>'source' as source,
              p.fill->>'fill' as fill
         from messages m cross join lateral jsonb_array_elements(m.fills) with ordinality as p(fill, ord)
        where jsonb_typeof(p.fill->'name') = 'string'
        order by m.rank, m.kind_rank, p.fill->>'name', p.ord
     )
     select 'messages' as part, null as name, null as source, count(*)::int as uses, 0 as filled, 0 as fallback,
            0 as empty
       from messages
     union all
     select 'field', name, (array_agg(source order by rank, kind_rank, ord))[1], count(*)::int,
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
