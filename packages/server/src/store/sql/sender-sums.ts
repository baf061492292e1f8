/**
 * `ActivityStore.senderSums` in one aggregate query (see the interface for what it sums): a
 * row per credited account back instead of every event of the campaign. Reading the events
 * was most of the sender breakdown's time on PGlite (decision 0023).
 */
import type { FactRule, SenderRules, SenderSum } from '../types.ts';
import type { SqlClient } from './client.ts';
import { factRuleCondition, isCountedSql, replyClassOf } from './analytics-sql.ts';

interface Row {
  account_id: string;
  channel: SenderSum['channel'];
  sent: number;
  contacted: number;
  replied: number;
  positive: number;
}

export async function sqlSenderSums(
  client: SqlClient,
  campaignId: string,
  query: { from: string | null } & SenderRules,
): Promise<SenderSum[]> {
  const params: unknown[] = [campaignId, query.from];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  // The reply class is worked out once per event, not once per rule (jsonb reads).
  const condition = (rule: FactRule) => factRuleCondition(rule, param, 'ev', 'ev.reply_class');
  // Slots in the counting order: the sends, then per channel its reply and positive reply.
  type Slot =
    { condition: string; kind: 'send' } | { condition: string; kind: 'replied' | 'positive'; channel: string };
  const slots: Slot[] = [
    ...query.sends.map((rule): Slot => ({ condition: condition(rule), kind: 'send' })),
    ...query.replies.flatMap(({ channel, replied, positive }): Slot[] => [
      { condition: condition(replied), kind: 'replied', channel: param(channel) },
      { condition: condition(positive), kind: 'positive', channel: param(channel) },
    ]),
  ];
  if (slots.length === 0) return [];
  const numbered = slots.map((slot, i) => ({ ...slot, number: i + 1 }));
  const sendKinds = param([...new Set(query.sends.flatMap((rule) => rule.kinds))]);
  // Only events of the rules' kinds go through the slots (each event is tried against each).
  const kinds = param([
    ...new Set(
      [...query.sends, ...query.replies.flatMap((pair) => [pair.replied, pair.positive])].flatMap((rule) => rule.kinds),
    ),
  ]);
  const sends = numbered.filter((slot) => slot.kind === 'send').map((slot) => slot.number);
  const numbersOf = (kind: 'replied' | 'positive') =>
    numbered.filter((slot) => slot.kind === kind).map((slot) => slot.number);
  const inList = (numbers: number[]) => (numbers.length === 0 ? 'false' : `f.slot in (${numbers.join(', ')})`);
  // A reply's channel is its slot's (the rule's); a send's is its event's.
  const replyChannels = numbered.flatMap((slot) =>
    slot.kind === 'send' ? [] : [`when ${slot.number} then ${slot.channel}::text`],
  );
  const channelOf =
    replyChannels.length === 0 ? 'f.channel' : `case f.slot ${replyChannels.join(' ')} else f.channel end`;
  const rows = await client.query<Row>(
    `with firsts as (
       select distinct on (ev.enrolment_id, s.slot) ev.enrolment_id, s.slot, ev.account_id, ev.channel, ev.occurred_at
         from (select ev.enrolment_id, ev.id, ev.kind, ev.account_id, ev.channel, ev.occurred_at,
                      ${replyClassOf('ev')} as reply_class
                 from activity_events ev
                where ev.campaign_id = $1 and ($2::timestamptz is null or ev.occurred_at >= $2)
                  and ev.kind = any(${kinds}::text[])) as ev
         cross join lateral unnest(array[${numbered.map((slot) => `case when ${slot.condition} then ${slot.number} end`).join(', ')}]) as s(slot)
        where s.slot is not null
        order by ev.enrolment_id, s.slot, ev.occurred_at, ev.id
     ),
     credited as (
       select e.enrolled_at, f.slot, f.enrolment_id, r.channel,
              -- An empty account ID is no account, as in the reference.
              case when ${inList(sends)} then nullif(f.account_id, '')
                   else coalesce(nullif(f.account_id, ''), (
                     -- The lead's last send on the reply's channel at or before it, at any time.
                     select nullif(m.account_id, '') from activity_events m
                      where m.enrolment_id = f.enrolment_id and m.channel = r.channel
                        and m.kind = any(${sendKinds}::text[]) and m.occurred_at <= f.occurred_at
                      order by m.occurred_at desc, m.id desc limit 1)) end as account_id
         -- By primary key only (an event's enrolment is of the event's campaign): given the
         -- campaign's enrolments to scan, the planner (with no statistics) compared every first
         -- with every enrolment (decision 0023).
         from firsts f
         join enrolments e on e.id = f.enrolment_id
         join leads l on l.id = e.lead_id
         cross join lateral (select ${channelOf} as channel) as r
        where ${isCountedSql}
     )
     select f.account_id,
            (array_agg(f.channel order by f.enrolled_at, f.enrolment_id, f.slot) filter (where f.channel is not null))[1] as channel,
            (count(*) filter (where ${inList(sends)}))::int as sent,
            (count(distinct f.enrolment_id) filter (where ${inList(sends)}))::int as contacted,
            (count(*) filter (where ${inList(numbersOf('replied'))}))::int as replied,
            (count(*) filter (where ${inList(numbersOf('positive'))}))::int as positive
       from credited f
      where f.account_id is not null
      group by f.account_id`,
    params,
  );
  return rows.map(({ account_id, channel, sent, contacted, replied, positive }) => ({
    account_id,
    channel,
    sent,
    contacted,
    replied,
    positive,
  }));
}
