/**
 * `GET /campaigns/{id}/senders/breakdown`: each sender account's share of the analysis's
 * sends and replies over a window (every arm).
 */
import type { Schemas } from '../../openapi/types.ts';
import { type ActivityEvent, instant, messageKinds } from '../activity.ts';
import { compareText } from '../collections.ts';
import type { SenderAccountRecord } from '../../store/records.ts';
import { type Fact, type LeadFacts, leadFacts } from './facts.ts';
import { type AnalyticsData, percent } from './population.ts';

type SenderBreakdownRow = Schemas['SenderBreakdownRow'];

const sends: readonly Fact[] = ['email_sent', 'connection_requested', 'linkedin_message_sent'];
const replies: ReadonlyArray<[Fact, Fact, 'email' | 'linkedin']> = [
  ['email_replied', 'email_positive', 'email'],
  ['linkedin_replied', 'linkedin_positive', 'linkedin'],
];

interface Tally {
  sent: number;
  contacted: Set<string>;
  replied: number;
  positive: number;
  channel: 'email' | 'linkedin' | null;
}

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
  const tallies = new Map<string, Tally>();
  const tally = (accountId: string, channel: 'email' | 'linkedin' | null) => {
    let entry = tallies.get(accountId);
    if (!entry) {
      entry = { sent: 0, contacted: new Set(), replied: 0, positive: 0, channel };
      tallies.set(accountId, entry);
    }
    entry.channel ??= channel;
    return entry;
  };
  for (const id of enabledAccounts) tally(id, null);
  for (const lead of leadFacts(data, from)) {
    for (const fact of sends) {
      const event = lead.first[fact];
      if (!event?.account_id) continue;
      const entry = tally(event.account_id, event.channel);
      entry.sent += 1;
      entry.contacted.add(lead.enrolment.id);
    }
    for (const [repliedFact, positiveFact, channel] of replies) {
      for (const [fact, field] of [
        [repliedFact, 'replied'],
        [positiveFact, 'positive'],
      ] as const) {
        const event = lead.first[fact];
        const accountId = event ? replyAccount(lead, event, channel) : null;
        if (accountId) tally(accountId, channel)[field] += 1;
      }
    }
  }
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const assigned = new Set(enabledAccounts);
  const others = [...tallies.keys()].filter((id) => !assigned.has(id)).sort(compareText);
  return [...new Set(enabledAccounts), ...others].map((id) => {
    const entry = tallies.get(id) as Tally;
    const account = byId.get(id);
    return {
      account_id: id,
      // An account unknown to the organization (never expected) still gets a row, so that
      // the rows add up to the analysis; its platform is the channel it was used on.
      platform: account?.platform ?? entry.channel ?? 'email',
      label: account?.label ?? id,
      sent: entry.sent,
      replied_leads: entry.replied,
      positive_leads: entry.positive,
      reply_rate_pct: percent(entry.replied, entry.contacted.size),
    };
  });
}

function replyAccount(lead: LeadFacts, reply: ActivityEvent, channel: 'email' | 'linkedin'): string | null {
  if (reply.account_id) return reply.account_id;
  const at = instant(reply.occurred_at);
  const lastSend = lead.events
    .filter((e) => e.channel === channel && messageKinds.includes(e.kind) && instant(e.occurred_at) <= at)
    .at(-1);
  return lastSend?.account_id ?? null;
}
