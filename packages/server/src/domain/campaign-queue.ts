/**
 * What a campaign sends next: each running lead's pending step from its sequence progress,
 * with the account that will send it, soonest first. The engine (issue 5) sends exactly
 * these, so the queue and the engine share `senderFor`.
 */
import { type ActivityEvent, type Arm, instant, messageKinds } from './activity.ts';
import type { Channel } from './channels.ts';
import { sequenceProgress } from './sequence-progress.ts';
import type { EnrolmentWithLeadRecord, Sequence, SenderAccountRecord } from '../store/records.ts';
import type { Schemas } from '../openapi/types.ts';
import { toApiTime } from './clock.ts';
import { compareText, groupBy } from './collections.ts';

type QueueItem = Schemas['QueueItem'];

export interface QueueCampaign {
  is_active: boolean;
  sequence: Sequence | [];
  ab_winner: Arm | null;
  activated_at: string | null;
  /** Assigned accounts, in the campaign's order. */
  enabled_accounts: string[];
}

/**
 * The account that sends a lead's next step on `channel`: the one that last sent to the
 * lead on that channel while it is still assigned (a conversation stays with its sender),
 * otherwise the first assigned account of that platform; null when none is assigned.
 */
export function senderFor(
  channel: Channel,
  assigned: ReadonlyArray<Pick<SenderAccountRecord, 'id' | 'platform'>>,
  leadEvents: readonly ActivityEvent[],
): string | null {
  const candidates = assigned.filter((account) => account.platform === channel).map((account) => account.id);
  const previous = [...leadEvents]
    .filter((e) => e.channel === channel && e.account_id !== null && messageKinds.includes(e.kind))
    .sort((a, b) => instant(b.occurred_at) - instant(a.occurred_at))
    .find((e) => candidates.includes(e.account_id as string));
  return previous?.account_id ?? candidates[0] ?? null;
}

/** When a lead's sequence starts: the later of its enrolment and the campaign's activation. */
export function sequenceStart(enrolledAt: string, activatedAt: string | null): string {
  if (activatedAt === null || instant(enrolledAt) >= instant(activatedAt)) return enrolledAt;
  return activatedAt;
}

export function campaignQueue(input: {
  campaign: QueueCampaign;
  accounts: ReadonlyArray<Pick<SenderAccountRecord, 'id' | 'platform'>>;
  enrolments: readonly EnrolmentWithLeadRecord[];
  events: readonly ActivityEvent[];
  now: string;
  before?: string;
  limit: number;
}): QueueItem[] {
  const { campaign } = input;
  // A draft or deactivated campaign sends nothing.
  if (!campaign.is_active) return [];
  const byId = new Map(input.accounts.map((account) => [account.id, account]));
  const assigned = campaign.enabled_accounts.flatMap((id) => byId.get(id) ?? []);
  const eventsByEnrolment = groupBy(input.events, (e) => e.enrolment_id);
  const before = input.before === undefined ? Number.POSITIVE_INFINITY : instant(input.before);
  const items: Array<{ item: QueueItem; due: number }> = [];
  for (const enrolment of input.enrolments) {
    // Removed and deleted leads are sent nothing more; paused and completed leads wait.
    if (enrolment.removed_at !== null || enrolment.lead_deleted_at !== null) continue;
    if (enrolment.status === 'paused' || enrolment.status === 'completed') continue;
    const events = eventsByEnrolment.get(enrolment.id) ?? [];
    const progress = sequenceProgress({
      sequence: campaign.sequence,
      arm: enrolment.variation,
      winner: campaign.ab_winner,
      start: sequenceStart(enrolment.enrolled_at, campaign.activated_at),
      events,
      now: input.now,
    });
    if (progress.state !== 'pending') continue;
    const due = instant(progress.next.due_at);
    if (due > before) continue;
    items.push({
      due,
      item: {
        sequence_lead_id: enrolment.id,
        lead_id: enrolment.lead_id,
        step_id: progress.next.step.id,
        step_type: progress.next.step.type,
        variation: enrolment.variation,
        channel: progress.next.channel,
        due_at: toApiTime(progress.next.due_at),
        sender_account_id: senderFor(progress.next.channel, assigned, events),
      },
    });
  }
  items.sort((a, b) => a.due - b.due || compareText(a.item.sequence_lead_id, b.item.sequence_lead_id));
  return items.slice(0, input.limit).map(({ item }) => item);
}
