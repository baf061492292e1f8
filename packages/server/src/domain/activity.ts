/**
 * Reading activity events: which kinds record a step running, what counts as contacting a
 * lead, and how a reply is classified for counting. One place, so that the engine's walk
 * through a sequence and every analytics report agree on what an event means.
 */
import { compareText } from './collections.ts';
import type { ActivityEventRecord, ActivityKind, SequenceStep } from '../store/records.ts';
import type { FactRule } from '../store/types.ts';

/** What the pure functions read of an event (tests build these without the store's fields). */
export type ActivityEvent = Pick<
  ActivityEventRecord,
  'id' | 'enrolment_id' | 'kind' | 'occurred_at' | 'step_id' | 'account_id' | 'channel' | 'data'
>;

export type Arm = 'a' | 'b';

/** The event kinds that record each step type running; a conditional runs on time alone. */
export const runKinds: Record<SequenceStep['type'], readonly ActivityKind[]> = {
  email: ['email_sent'],
  view_profile: ['profile_viewed'],
  linkedin_connection: ['connection_requested', 'already_connected'],
  linkedin_message: ['linkedin_message_sent'],
  conditional: [],
};

/** Kinds that send the lead a message: a lead is contacted by the first of them. */
export const messageKinds: readonly ActivityKind[] = ['email_sent', 'connection_requested', 'linkedin_message_sent'];

/** Kinds that connect the lead to the campaign's LinkedIn sender. */
export const connectionKinds: readonly ActivityKind[] = ['connection_accepted', 'already_connected'];

export type ReplyClass = 'positive' | 'neutral' | 'negative' | 'ooo' | 'unclassified';

/**
 * How a reply counts: an out-of-office reply counts as `ooo` whatever its sentiment (the
 * document counts it "there, not by sentiment"), otherwise by its sentiment; a reply that
 * was not analysed is `unclassified` (it counts only as a reply).
 */
export function replyClass(event: ActivityEvent): ReplyClass | null {
  if (event.kind !== 'reply_received') return null;
  if (event.data.out_of_office === true) return 'ooo';
  return event.data.sentiment ?? 'unclassified';
}

export const isPositiveReply = (event: ActivityEvent) => replyClass(event) === 'positive';

/** Whether `event` establishes the analytics fact of `rule` (`factRules`). */
export function matchesRule(event: ActivityEvent, rule: FactRule): boolean {
  return (
    rule.kinds.includes(event.kind) &&
    (rule.channel === undefined || event.channel === rule.channel) &&
    (rule.replyClass === undefined || replyClass(event) === rule.replyClass)
  );
}

export const instant = (iso: string) => Date.parse(iso);

/** Oldest first, ties by `id` (the store's order), whatever order events came in. */
export function byTime<T extends Pick<ActivityEvent, 'occurred_at' | 'id'>>(events: readonly T[]): T[] {
  // Each time parsed once rather than at every comparison: the step funnel sorts every event
  // of a campaign (tens of thousands, about 17 comparisons each).
  const keyed = events.map((event) => ({ event, at: instant(event.occurred_at) }));
  keyed.sort((a, b) => a.at - b.at || compareText(a.event.id, b.event.id));
  return keyed.map(({ event }) => event);
}
