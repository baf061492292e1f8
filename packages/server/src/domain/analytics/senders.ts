/**
 * `GET /campaigns/{id}/senders/breakdown`: each sender account's share of the analysis's
 * sends and replies over a window (every arm).
 */
import type { Schemas } from '../../openapi/types.ts';
import { type ActivityEvent, instant, matchesRule } from '../activity.ts';
import { compareText } from '../collections.ts';
import type { ActivityKind, SenderAccountRecord } from '../../store/records.ts';
import type { FactRule, SenderRules, SenderSum } from '../../store/types.ts';
import { type Fact, factRules, type LeadFacts, leadFacts } from './facts.ts';
import { type AnalyticsData, percent } from './population.ts';

type SenderBreakdownRow = Schemas['SenderBreakdownRow'];

const sends = ['email_sent', 'connection_requested', 'linkedin_message_sent'] as const satisfies readonly Fact[];
const replies = [
  { channel: 'email', replied: 'email_replied', positive: 'email_positive' },
  { channel: 'linkedin', replied: 'linkedin_replied', positive: 'linkedin_positive' },
] as const satisfies ReadonlyArray<{ channel: 'email' | 'linkedin'; replied: Fact; positive: Fact }>;

/** The facts the report credits, as rules: what `ActivityStore.senderSums` is asked for. */
export const senderRules: SenderRules = {
  sends: sends.map((fact) => factRules[fact]),
  replies: replies.map(({ channel, replied, positive }) => ({
    channel,
    replied: factRules[replied],
    positive: factRules[positive],
  })),
};

/**
 * Rows for the assigned accounts in the campaign's order, then for any other account with
 * counted activity, by ID. A lead's first send of each kind counts for the account that sent
 * it; its first reply on a channel (and first positive reply) for the account it arrived on,
 * or when the event does not say, the account that last sent to the lead on that channel.
 * Sends and replies without an account count in no row.
 */
export function senderBreakdown(
  data: AnalyticsData,
  from: string | null,
  enabledAccounts: readonly string[],
  accounts: ReadonlyArray<Pick<SenderAccountRecord, 'id' | 'platform' | 'label'>>,
): SenderBreakdownRow[] {
  return senderBreakdownFrom(senderSumsOf(data, from), enabledAccounts, accounts);
}

/**
 * `SenderSum`s from a campaign's rows (all its events: a reply may be credited to an earlier
 * send), as the store sums them for `rules`.
 */
export function senderSumsOf(data: AnalyticsData, from: string | null, rules: SenderRules = senderRules): SenderSum[] {
  const start = from === null ? Number.NEGATIVE_INFINITY : instant(from);
  const sendKinds = new Set(rules.sends.flatMap((rule) => rule.kinds));
  const sums = new Map<string, SenderSum & { leads: Set<string> }>();
  const credit = (accountId: string, channel: 'email' | 'linkedin' | null) => {
    let sum = sums.get(accountId);
    if (!sum) {
      sum = { account_id: accountId, channel: null, sent: 0, contacted: 0, replied: 0, positive: 0, leads: new Set() };
      sums.set(accountId, sum);
    }
    // The platform of an account the organization does not know (never expected).
    sum.channel ??= channel;
    return sum;
  };
  for (const lead of leadFacts(data, from)) {
    const first = (rule: FactRule) =>
      lead.events.find((event) => instant(event.occurred_at) >= start && matchesRule(event, rule));
    for (const rule of rules.sends) {
      const event = first(rule);
      if (!event?.account_id) continue;
      const sum = credit(event.account_id, event.channel);
      sum.sent += 1;
      sum.leads.add(lead.enrolment.id);
    }
    for (const { channel, replied, positive } of rules.replies) {
      for (const [rule, field] of [
        [replied, 'replied'],
        [positive, 'positive'],
      ] as const) {
        const event = first(rule);
        const accountId = event ? replyAccount(lead, event, channel, sendKinds) : null;
        if (accountId) credit(accountId, channel)[field] += 1;
      }
    }
  }
  return [...sums.values()].map(({ leads, ...sum }) => ({ ...sum, contacted: leads.size }));
}

/** The report from the campaign's sums (`ActivityStore.senderSums`). */
export function senderBreakdownFrom(
  sums: readonly SenderSum[],
  enabledAccounts: readonly string[],
  accounts: ReadonlyArray<Pick<SenderAccountRecord, 'id' | 'platform' | 'label'>>,
): SenderBreakdownRow[] {
  const byAccount = new Map(sums.map((sum) => [sum.account_id, sum]));
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const assigned = new Set(enabledAccounts);
  const others = [...byAccount.keys()].filter((id) => !assigned.has(id)).sort(compareText);
  return [...assigned, ...others].map((id) => {
    const sum = byAccount.get(id);
    const account = byId.get(id);
    return {
      account_id: id,
      // An account unknown to the organization (never expected) still gets a row, so that
      // the rows add up to the analysis; its platform is the channel it was used on.
      platform: account?.platform ?? sum?.channel ?? 'email',
      label: account?.label ?? id,
      sent: sum?.sent ?? 0,
      replied_leads: sum?.replied ?? 0,
      positive_leads: sum?.positive ?? 0,
      reply_rate_pct: percent(sum?.replied ?? 0, sum?.contacted ?? 0),
    };
  });
}

function replyAccount(
  lead: LeadFacts,
  reply: ActivityEvent,
  channel: 'email' | 'linkedin',
  sendKinds: ReadonlySet<ActivityKind>,
): string | null {
  if (reply.account_id) return reply.account_id;
  const at = instant(reply.occurred_at);
  const lastSend = lead.events
    .filter((e) => e.channel === channel && sendKinds.has(e.kind) && instant(e.occurred_at) <= at)
    .at(-1);
  return lastSend?.account_id ?? null;
}
