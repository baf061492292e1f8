/** SQL the stores' analytics sums share: who counts, and the facts' rules (`FactRule`). */
import type { FactRule } from '../types.ts';

/** How the reply in row `ev` counts (domain/activity.ts `replyClass`): `ooo` first, else its sentiment. */
export const replyClassOf = (ev: string) => `case when ${ev}.kind <> 'reply_received' then null
  when ${ev}.data->'out_of_office' = 'true'::jsonb then 'ooo'
  else coalesce(${ev}.data->>'sentiment', 'unclassified') end`;

/**
 * A condition true for the events of row `ev` that `rule` matches. `param` adds a parameter
 * and gives its placeholder; `replyClass` is the row's reply class (a column already worked
 * out, or the expression).
 */
export function factRuleCondition(
  rule: FactRule,
  param: (value: unknown) => string,
  ev: string,
  replyClass = replyClassOf(ev),
): string {
  const conditions = [`${ev}.kind = any(${param(rule.kinds)}::text[])`];
  if (rule.channel !== undefined) conditions.push(`${ev}.channel = ${param(rule.channel)}::text`);
  if (rule.replyClass !== undefined) conditions.push(`${replyClass} = ${param(rule.replyClass)}::text`);
  return conditions.join(' and ');
}

/**
 * True for a counted enrolment `e` with its lead `l` (`isCounted` in
 * domain/analytics/population.ts): an enrolment counts unless its lead was removed from the
 * campaign while it lived.
 */
export const isCountedSql = '(e.removed_at is null or (l.deleted_at is not null and e.removed_at >= l.deleted_at))';

/** `from ... where ...` of a campaign's counted enrolments as `e`, with their leads as `l`. */
export const countedEnrolmentsOf = (campaign: string) =>
  `enrolments e join leads l on l.id = e.lead_id where e.campaign_id = ${campaign} and ${isCountedSql}`;
