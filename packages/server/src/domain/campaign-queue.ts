/**
 * What a campaign sends next: each running lead's pending step from its sequence progress,
 * with the account that will send it, soonest first. The engine (issue 5) sends exactly
 * these, so the queue and the engine share `senderFor` and the arm a lead is drawn into.
 */
import { type ActivityEvent, type Arm, instant, messageKinds } from './activity.ts';
import { chooseArm } from './arm.ts';
import type { Channel } from './channels.ts';
import { type NextStep, type Progress, sequenceProgress } from './sequence-progress.ts';
import type { EnrolmentWithLeadRecord, Sequence, SenderAccountRecord } from '../store/records.ts';
import type { Schemas } from '../openapi/types.ts';
import { toApiTime } from './clock.ts';
import { compareText, groupBy } from './collections.ts';

export type QueueItem = Schemas['QueueItem'];

export interface QueueCampaign {
  is_active: boolean;
  sequence: Sequence | [];
  ab_winner: Arm | null;
  /** With `traffic_split`, the arm a lead without one is drawn into (`chooseArm`). */
  ab_testing_enabled: boolean;
  traffic_split: number;
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

/** The campaign's assigned accounts among `accounts`, in the campaign's order (`senderFor`'s candidates). */
export function assignedAccounts<A extends Pick<SenderAccountRecord, 'id'>>(
  campaign: Pick<QueueCampaign, 'enabled_accounts'>,
  accounts: readonly A[],
): A[] {
  const byId = new Map(accounts.map((account) => [account.id, account]));
  return campaign.enabled_accounts.flatMap((id) => byId.get(id) ?? []);
}

/** When a lead's sequence starts: the later of its enrolment and the campaign's activation. */
export function sequenceStart(enrolledAt: string, activatedAt: string | null): string {
  if (activatedAt === null || instant(enrolledAt) >= instant(activatedAt)) return enrolledAt;
  return activatedAt;
}

/**
 * A lead's arm: the one it was given with its first step, or, before that, the one it will be
 * drawn into then (a hash of its ID: the same at every round while the campaign's split stays).
 */
export function leadArm(
  campaign: Pick<QueueCampaign, 'sequence' | 'ab_testing_enabled' | 'traffic_split'>,
  enrolment: Pick<EnrolmentWithLeadRecord, 'id' | 'variation'>,
): Arm {
  return enrolment.variation ?? chooseArm(campaign, enrolment.id);
}

/**
 * Where a sequence lead of `campaign` is at `now`, from its events. A lead without an arm yet
 * is walked through the steps of the arm it will be drawn into, so that its first step is
 * the one the engine sends.
 */
export function leadProgress(
  campaign: Pick<QueueCampaign, 'sequence' | 'ab_winner' | 'activated_at' | 'ab_testing_enabled' | 'traffic_split'>,
  enrolment: Pick<EnrolmentWithLeadRecord, 'id' | 'variation' | 'enrolled_at'>,
  events: readonly ActivityEvent[],
  now: string,
): Progress {
  return sequenceProgress({
    sequence: campaign.sequence,
    arm: leadArm(campaign, enrolment),
    winner: campaign.ab_winner,
    start: sequenceStart(enrolment.enrolled_at, campaign.activated_at),
    events,
    now,
  });
}

/** A running lead's pending step: what the queue shows and the engine runs when it is due. */
export interface PendingStep<E extends EnrolmentWithLeadRecord = EnrolmentWithLeadRecord> {
  /** As given to `pendingSteps` (the engine's carry their schedule's mark). */
  enrolment: E;
  /** The lead's arm, or the one it is drawn into when this (its first) step is sent. */
  arm: Arm;
  next: NextStep;
  /** The lead's events, oldest first. */
  events: readonly ActivityEvent[];
  sender_account_id: string | null;
}

/**
 * Each running lead's pending step (removed, deleted, paused and completed leads have none),
 * soonest first, ties by sequence lead ID; with `before`, only those due at or before it.
 */
export interface PendingStepsInput<E extends EnrolmentWithLeadRecord = EnrolmentWithLeadRecord> {
  campaign: QueueCampaign;
  accounts: ReadonlyArray<Pick<SenderAccountRecord, 'id' | 'platform'>>;
  enrolments: readonly E[];
  events: readonly ActivityEvent[];
  now: string;
  before?: string;
}

export function pendingSteps<E extends EnrolmentWithLeadRecord>(input: PendingStepsInput<E>): PendingStep<E>[] {
  const { campaign } = input;
  // A draft or deactivated campaign sends nothing.
  if (!campaign.is_active) return [];
  const assigned = assignedAccounts(campaign, input.accounts);
  const eventsByEnrolment = groupBy(input.events, (e) => e.enrolment_id);
  const before = input.before === undefined ? Number.POSITIVE_INFINITY : instant(input.before);
  const pending: Array<PendingStep<E> & { due: number }> = [];
  for (const enrolment of input.enrolments) {
    // Removed and deleted leads are sent nothing more; paused and completed leads wait.
    if (enrolment.removed_at !== null || enrolment.lead_deleted_at !== null) continue;
    if (enrolment.status === 'paused' || enrolment.status === 'completed') continue;
    const events = eventsByEnrolment.get(enrolment.id) ?? [];
    const progress = leadProgress(campaign, enrolment, events, input.now);
    if (progress.state !== 'pending') continue;
    const due = instant(progress.next.due_at);
    if (due > before) continue;
    const sender_account_id = senderFor(progress.next.channel, assigned, events);
    pending.push({ due, enrolment, arm: leadArm(campaign, enrolment), next: progress.next, events, sender_account_id });
  }
  pending.sort((a, b) => a.due - b.due || compareText(a.enrolment.id, b.enrolment.id));
  return pending;
}

/** The queue's order: soonest first, ties by sequence lead ID. */
export function soonestFirst(a: PendingStep, b: PendingStep): number {
  return instant(a.next.due_at) - instant(b.next.due_at) || compareText(a.enrolment.id, b.enrolment.id);
}

/** A queue item: what `GET /campaigns/{id}/queue` shows of a pending step. */
export function queueItem({ enrolment, next, sender_account_id }: PendingStep): QueueItem {
  return {
    sequence_lead_id: enrolment.id,
    lead_id: enrolment.lead_id,
    step_id: next.step.id,
    step_type: next.step.type,
    variation: enrolment.variation,
    channel: next.channel,
    due_at: toApiTime(next.due_at),
    sender_account_id,
  };
}

/** The queue over the whole campaign's enrolments and events (the route reads by bound: routes/queue-read.ts). */
export function campaignQueue(input: PendingStepsInput & { limit: number }): QueueItem[] {
  return pendingSteps(input).slice(0, input.limit).map(queueItem);
}
