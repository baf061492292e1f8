/**
 * One round of the engine over every active campaign: each lead whose next step is due runs
 * it, in due order. A round runs what is due at the clock's `now`; the scheduler calls it
 * every few seconds, the sandbox clock at every due time it passes.
 *
 * Running a step is one transaction: the step's event (with where it ran and what follows,
 * `stepRunRecord`), the lead's arm and status, and the message handed to the channel. The
 * event is unique per lead and step in the store, so when two engines race for a step one
 * transaction fails and that engine moves on: a step runs, and its message goes out, once.
 */
import { messageKinds } from '../domain/activity.ts';
import { leadProgress, pendingSteps, type PendingStep } from '../domain/campaign-queue.ts';
import { newId } from '../domain/ids.ts';
import { followedSteps, type Progress, stepRunRecord } from '../domain/sequence-progress.ts';
import { storedSequence } from '../domain/sequence-steps.ts';
import { UniqueViolation, uniqueConstraints } from '../store/errors.ts';
import type {
  ActivityEventRecord,
  ActivityKind,
  AiFieldRecord,
  CampaignRecord,
  EnrolmentStatus,
  MessageStepType,
  SenderAccountRecord,
  SequenceStep,
} from '../store/records.ts';
import type { DueEnrolment, DueEntry, Store } from '../store/types.ts';
import type { OutboundChannel } from './channel.ts';
import { renderMessage } from './render-message.ts';
import { RenderedTooLong } from '../domain/placeholders.ts';
import type { Logger } from '../http/logger.ts';

export interface StepRunner {
  store: Store;
  channel: OutboundChannel;
  /** Told of a step that cannot be sent and stays due (its message renders too long). */
  logger?: Logger;
  /**
   * The leads whose step it was told of, kept by the engine across rounds (`TooLongSteps`):
   * logged once, and not tried again at every round.
   */
  tooLong?: TooLongSteps;
}

/**
 * Leads whose due step's message renders too long, by enrolment ID: the step, the campaign's
 * and the lead's state it was rendered from, and when to try it again. A round tried such a
 * step at each tick (a transaction, its locks, four reads and a render, then a rollback), so
 * a campaign's thousand such leads took the engine's rounds, every second, for every
 * organization. It is tried again once the campaign or the lead changes (the step's text or
 * the placeholders' values may have: `textStamp`), or after `tooLongRetryMs` (an AI field's
 * fallback value may have, which neither stamp shows); a step that runs is forgotten.
 */
export type TooLongSteps = Map<string, { stepId: number; stamp: string; retryAt: number }>;

/** How long a step whose message renders too long waits before it is tried again, unless its campaign or lead changes. */
export const tooLongRetryMs = 10 * 60_000;

/** How many such leads the engine remembers (a lead deleted meanwhile is never tried again, so never forgotten otherwise). */
const tooLongKept = 10_000;

/**
 * What decides a lead's message text, as the round reads it: the campaign's sequence and any
 * other edit of it (`updated_at`), and any edit of the lead (its `updated_at`, which
 * `listDue` reads in the join it already makes, so a lead's edit ends the wait at the next
 * round without a read per lead).
 */
const textStamp = (campaign: CampaignRecord, enrolment: DueEnrolment) =>
  `${campaign.sequence_version}:${campaign.updated_at}:${enrolment.lead_updated_at}`;

/** A step's message for one lead renders past `maxRenderedLength`: it cannot be sent. */
class MessageTooLong extends Error {
  constructor(
    readonly stepId: number,
    cause: RenderedTooLong,
  ) {
    super(cause.message, { cause });
  }
}

/** A lead's later steps can come due at once (delay 0): a campaign is walked again, this many times at most. */
const maxPasses = 50;

const dayMs = 86_400_000;

/** Runs every step due at `now` in every active campaign; returns how many ran. */
export async function runDueSteps(runner: StepRunner, now: Date): Promise<number> {
  let ran = 0;
  for (const campaign of await runner.store.campaigns.listAllActive()) {
    ran += await runCampaign(runner, campaign, now.toISOString());
  }
  return ran;
}

/**
 * The earliest time after `now` at which a step of an active campaign comes due, or null: the
 * schedule's earliest bound after `now`, once the bounds at or before it (leads not known, or
 * due by then) have been worked out and written (decision 0002, "Due times").
 */
export async function nextStepDueAfter(store: Store, now: Date): Promise<Date | null> {
  const at = now.toISOString();
  let earliest: number | null = null;
  for (const campaign of await store.campaigns.listAllActive()) {
    // Until every bound at or before now was written: one a writer's mark kept unwritten (a
    // sequence edit meanwhile) is read and worked out again, not taken as it was computed.
    for (let attempt = 0; attempt < maxPasses; attempt += 1) {
      const read = await readDue(store, campaign, at);
      if (!read || (await store.enrolments.setDue(read.bounds)) === read.bounds.length) break;
    }
    const due = await store.enrolments.earliestDueAfter(campaign.id, at);
    if (due !== null && (earliest === null || Date.parse(due) < earliest)) earliest = Date.parse(due);
  }
  return earliest === null ? null : new Date(earliest);
}

async function runCampaign(runner: StepRunner, listed: CampaignRecord, now: string): Promise<number> {
  // Reading the campaign's leads and events is the cost of a round, and it grows with the
  // campaign. Every step waits for a connected sender with budget left today, so once no
  // assigned account has one (a large campaign's usual state: its senders' daily limits are
  // spent in the first rounds of the day), nothing can run: the round reads only the
  // senders and how many messages each sent today.
  const senders = await runner.store.accounts.getMany(listed.organization_id, listed.enabled_accounts);
  let sentToday = await messagesSentToday(runner.store, senders, now);
  if (!canSend(senders, sentToday)) return 0;
  let ran = 0;
  let aiFields: AiFieldRecord[] | null = null;
  // Leads whose message renders too long, for this round's later passes when the engine keeps none.
  const tooLong: TooLongSteps = runner.tooLong ?? new Map();
  const nowMs = Date.parse(now);
  for (let pass = 0; pass < maxPasses; pass += 1) {
    // The first pass uses the senders just read; a later one reads them again with the leads.
    const read = await readDue(runner.store, listed, now, pass === 0 ? senders : undefined);
    // Deactivated since the round listed it: nothing runs.
    if (!read) break;
    const { campaign, pending, accounts, bounds } = read;
    // The leads read that are not due now: their bounds, worked out, are written (so that the
    // next rounds skip them); the ones due now keep theirs until they run.
    await runner.store.enrolments.setDue(bounds);
    // Counted again for each later pass: another engine may have sent meanwhile.
    if (pass > 0) sentToday = await messagesSentToday(runner.store, accounts, now);
    let ranThisPass = 0;
    for (const due of pending) {
      const held = tooLong.get(due.enrolment.id);
      if (held && held.stamp === textStamp(campaign, due.enrolment) && nowMs < held.retryAt) continue;
      // The queue's account: the step it shows is the step that runs (of the lead's arm to be).
      const account = accounts.find((a) => a.id === due.sender_account_id);
      // No account of the step's platform is assigned, or it is disconnected or at its daily
      // limit: the step stays due (the queue shows it) until one can send it.
      if (!account || account.status !== 'connected') continue;
      if ((sentToday.get(account.id) ?? 0) >= account.daily_limit) continue;
      aiFields ??= await runner.store.aiFields.list(campaign.id);
      let outcome: StepOutcome;
      try {
        outcome = await runStep(runner, campaign, due, account, aiFields, now);
      } catch (error) {
        if (!(error instanceof MessageTooLong)) throw error;
        // This lead's data and the step's text make a message no provider would take: the
        // step stays due (the queue shows it) until one of them changes, and every other
        // lead's steps run, instead of the whole round failing at each tick.
        // Bounded: the oldest remembered lead makes room (a Map keeps its keys in insertion
        // order), at worst tried again at its next round.
        const oldest = tooLong.size >= tooLongKept ? tooLong.keys().next().value : undefined;
        if (oldest !== undefined) tooLong.delete(oldest);
        tooLong.delete(due.enrolment.id);
        tooLong.set(due.enrolment.id, {
          stepId: error.stepId,
          stamp: textStamp(campaign, due.enrolment),
          retryAt: nowMs + tooLongRetryMs,
        });
        if (held?.stepId !== error.stepId) {
          runner.logger?.log({
            level: 'warn',
            message: 'step not sent: its message renders too long',
            campaign_id: campaign.id,
            lead_id: due.enrolment.lead_id,
            step_id: error.stepId,
            error: error.message,
          });
        }
        continue;
      }
      if (held && outcome !== 'spent') tooLong.delete(due.enrolment.id);
      if (outcome === 'spent') sentToday.set(account.id, account.daily_limit);
      if (outcome === 'ran') {
        ranThisPass += 1;
        if (isMessage(due.next.step)) sentToday.set(account.id, (sentToday.get(account.id) ?? 0) + 1);
      }
    }
    ran += ranThisPass;
    // Another pass reads the campaign again: not when nothing ran, nor once the senders' budget is spent.
    if (ranThisPass === 0 || !canSend(accounts, sentToday)) break;
  }
  return ran;
}

/**
 * What a round reads of a campaign: its enrolments whose bound is at or before `now` (not
 * known, or due) with their events, not the whole campaign. `pending`: the steps due now, in
 * due order; `bounds`: for every other lead read, its next due time or null, to be written
 * where its mark is still the one read (decision 0002, "Due times").
 */
async function readDue(store: Store, listed: CampaignRecord, now: string, senders?: SenderAccountRecord[]) {
  const enrolments = await store.enrolments.listDue(listed.id, now);
  // The campaign as it is now, read after the marks: a sequence edit moves the marks in its own
  // statement, so either the marks read predate it (and the bounds worked out here from an
  // older sequence are not written) or this read sees the new sequence.
  const campaign = await store.campaigns.get(listed.organization_id, listed.id);
  if (!campaign?.is_active) return null;
  const [events, accounts] = await Promise.all([
    store.activity.listForEnrolments(enrolments.map((e) => e.id)),
    senders ?? store.accounts.getMany(campaign.organization_id, campaign.enabled_accounts),
  ]);
  const all = pendingSteps({ campaign, accounts, enrolments, events, now });
  const byId = new Map(all.map((step) => [step.enrolment.id, step]));
  const nowMs = Date.parse(now);
  const pending = all.filter((step) => Date.parse(step.next.due_at) <= nowMs);
  const bounds: DueEntry[] = enrolments.flatMap((e) => {
    const next = byId.get(e.id)?.next ?? null;
    if (next !== null && Date.parse(next.due_at) <= nowMs) return [];
    return [{ id: e.id, due_at: next?.due_at ?? null, mark: e.due_mark }];
  });
  return { campaign, pending, accounts, bounds };
}

/**
 * `taken`: another engine ran it, or the lead or campaign changed since the round read them;
 * `spent`: its account reached its daily limit since the round counted (another engine sent).
 */
type StepOutcome = 'ran' | 'taken' | 'spent';

/**
 * Runs a due lead's pending step: of its arm (a lead without one yet is given the arm its
 * pending first step was chosen from, `leadArm`).
 */
async function runStep(
  runner: StepRunner,
  campaign: CampaignRecord,
  due: PendingStep<DueEnrolment>,
  account: SenderAccountRecord,
  aiFields: readonly AiFieldRecord[],
  now: string,
): Promise<StepOutcome> {
  const { enrolment, arm } = due;
  const { step, position, channel } = due.next;
  const sequence = storedSequence(campaign.sequence);
  if (!sequence) return 'taken';
  const { steps } = followedSteps(sequence, arm);
  const kind = runKind(step);
  try {
    return await runner.store.transaction(async (tx): Promise<StepOutcome> => {
      // What the round read may be stale: under the lead's lock (a reply takes it too), the
      // step runs only if the lead is still running and the campaign still active.
      const current = await tx.enrolments.find(campaign.id, enrolment.lead_id, { forUpdate: true });
      if (!current || current.id !== enrolment.id || current.status === 'paused' || current.status === 'completed') {
        return 'taken';
      }
      if (current.variation !== enrolment.variation) return 'taken';
      if (!(await tx.campaigns.get(campaign.organization_id, campaign.id))?.is_active) return 'taken';
      const lead = await tx.leads.get(campaign.organization_id, enrolment.lead_id);
      if (!lead) return 'taken';
      const message = isMessage(step) ? step : null;
      if (message && !(await withinDailyLimit(tx, account, now))) return 'spent';
      const rendered = message ? renderOrRefuse(message, lead, aiFields) : null;
      const event: ActivityEventRecord = {
        id: newId(),
        organization_id: campaign.organization_id,
        campaign_id: campaign.id,
        enrolment_id: enrolment.id,
        lead_id: enrolment.lead_id,
        variation: arm,
        step_id: step.id,
        account_id: account.id,
        channel,
        kind,
        occurred_at: now,
        data: { ...stepRunRecord(steps, position), ...(rendered ? { placeholders: rendered.placeholders } : {}) },
      };
      await tx.activity.insert(event);
      const events = [...due.events, event];
      const after = leadProgress(campaign, { ...enrolment, variation: arm }, events, now);
      // With its next step's due time, where no change since the round's read moved its mark.
      await tx.enrolments.update(
        enrolment.id,
        { variation: arm, status: statusAfter(enrolment, after, events) },
        { due_at: after.state === 'pending' ? after.next.due_at : null, mark: enrolment.due_mark },
      );
      if (message && rendered) {
        await runner.channel.send(
          {
            organization_id: campaign.organization_id,
            campaign_id: campaign.id,
            enrolment_id: enrolment.id,
            lead_id: enrolment.lead_id,
            step: message,
            channel,
            variation: arm,
            account_id: account.id,
            subject: rendered.subject,
            body: rendered.body,
            sent_at: now,
          },
          tx,
        );
      }
      return 'ran';
    });
  } catch (error) {
    // Another engine ran this step first: it is done, and was sent once.
    if (error instanceof UniqueViolation && error.constraint === uniqueConstraints.stepRun) return 'taken';
    throw error;
  }
}

/** The event kind that records `step` running (a connection request, even to a connected lead). */
function runKind(step: SequenceStep): ActivityKind {
  switch (step.type) {
    case 'email':
      return 'email_sent';
    case 'view_profile':
      return 'profile_viewed';
    case 'linkedin_connection':
      return 'connection_requested';
    default:
      return 'linkedin_message_sent';
  }
}

/** Whether running `step` sends the lead a message (a profile view does not). */
function isMessage(step: SequenceStep): step is SequenceStep & { type: MessageStepType } {
  return messageKinds.includes(runKind(step));
}

/**
 * `completed` once no step is left for the lead; `active` once it has been sent a message;
 * until then it stays `not_contacted` (a profile view contacts nobody).
 */
function statusAfter(
  enrolment: PendingStep['enrolment'],
  progress: Progress,
  events: PendingStep['events'],
): EnrolmentStatus {
  if (progress.state === 'completed') return 'completed';
  return events.some((e) => messageKinds.includes(e.kind)) ? 'active' : enrolment.status;
}

/** Whether an account is connected and under its daily limit: else no step can run. */
function canSend(accounts: readonly SenderAccountRecord[], sentToday: ReadonlyMap<string, number>): boolean {
  return accounts.some(
    (account) => account.status === 'connected' && (sentToday.get(account.id) ?? 0) < account.daily_limit,
  );
}

/**
 * Messages each connected account sent on `now`'s UTC day, for any campaign: its
 * `daily_limit` caps the account's messages, and an account can send for one campaign in the
 * morning and another in the afternoon.
 */
async function messagesSentToday(
  store: Store,
  accounts: readonly SenderAccountRecord[],
  now: string,
): Promise<Map<string, number>> {
  const connected = accounts.filter((account) => account.status === 'connected').map((account) => account.id);
  if (connected.length === 0) return new Map();
  const from = `${now.slice(0, 10)}T00:00:00.000Z`;
  const to = new Date(Date.parse(from) + dayMs).toISOString();
  return store.activity.countByAccount(connected, { kinds: [...messageKinds], from, to });
}

/**
 * Whether the account may send one more message today, counted again under its row's lock:
 * the round counted before it ran anything, and the engine of another server on the same
 * database may have sent on the account since. The lock orders the engines' sends on one
 * account, and the count inside it sees every one committed.
 */
async function withinDailyLimit(tx: Store, account: SenderAccountRecord, now: string): Promise<boolean> {
  const [locked] = await tx.accounts.getMany(account.organization_id, [account.id], { forUpdate: true });
  if (locked?.status !== 'connected') return false;
  const sent = await messagesSentToday(tx, [locked], now);
  return (sent.get(locked.id) ?? 0) < locked.daily_limit;
}

/** The message, or `MessageTooLong` naming the step (the one rendered: a first step's arm is drawn here). */
function renderOrRefuse(...[step, lead, aiFields]: Parameters<typeof renderMessage>): ReturnType<typeof renderMessage> {
  try {
    return renderMessage(step, lead, aiFields);
  } catch (error) {
    throw error instanceof RenderedTooLong ? new MessageTooLong(step.id, error) : error;
  }
}
