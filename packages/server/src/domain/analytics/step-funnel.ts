/**
 * `GET /campaigns/{id}/step-funnel`: per step of the sequence, how many leads it came due
 * for, ran for, and whose first reply followed it. Each lead's path through the sequence is
 * its sequence progress (domain/sequence-progress.ts), the same walk the engine and the
 * queue use.
 */
import type { Schemas } from '../../openapi/types.ts';
import type { ActivityKind, Sequence } from '../../store/records.ts';
import { type Arm, connectionKinds, instant, runKinds } from '../activity.ts';
import { sequenceStart } from '../campaign-queue.ts';
import { sequenceProgress, stepPositions, type TrailEntry } from '../sequence-progress.ts';
import { factRules, type LeadFacts, leadFacts } from './facts.ts';
import { type AnalyticsData, type AnalyticsWindow, percent } from './population.ts';

type StepFunnelRow = Schemas['StepFunnelRow'];

/** What the walk through the sequence needs besides the events. */
export interface SequenceContext {
  sequence: Sequence | [];
  winner: Arm | null;
  activatedAt: string | null;
  now: string;
}

/**
 * The events the funnel reads: the runs of steps, connections (which decide conditionals)
 * and replies (which pause a lead and are counted). Never an open, which is a fifth of a
 * campaign's events; nor a booking.
 */
export const stepFunnelKinds: readonly ActivityKind[] = [
  ...new Set([
    ...Object.values(runKinds).flat(),
    ...connectionKinds,
    ...factRules.replied.kinds,
    ...factRules.positive.kinds,
  ]),
];

/**
 * Rows in sequence order, `a` then `b`. A step counts as reached by a lead when it came due
 * or ran inside the window (a step due before the window's start that ran inside it counts,
 * so that `completed` stays within `reached` and matches the analysis's sends); completed
 * when it ran inside the window. A lead's first reply (and first positive reply) inside the
 * window counts for the last step that ran at or before it. Of `data` it reads the
 * enrolments and the events of `stepFunnelKinds`: others change nothing.
 */
export function stepFunnel(data: AnalyticsData, window: AnalyticsWindow, context: SequenceContext): StepFunnelRow[] {
  if (Array.isArray(context.sequence) || window.variation === 'unassigned') return [];
  const sequence = context.sequence;
  const arms: Array<[Arm, Sequence['variation_a']]> = [['a', sequence.variation_a]];
  if ((sequence.variation_b ?? []).length > 0) arms.push(['b', sequence.variation_b ?? []]);
  const rows = new Map<string, StepFunnelRow>();
  for (const [variation, steps] of arms) {
    if (window.variation !== 'all' && window.variation !== variation) continue;
    for (const { step, position, branch } of stepPositions(steps)) {
      rows.set(`${variation}|${position}`, {
        variation,
        step_id: step.id,
        type: step.type,
        branch,
        reached: 0,
        completed: 0,
        replied: 0,
        positive: 0,
        reply_rate_pct: null,
      });
    }
  }
  const from = window.from === null ? Number.NEGATIVE_INFINITY : instant(window.from);
  const now = instant(context.now);
  for (const lead of leadFacts(data, window.from)) {
    const { trail } = sequenceProgress({
      sequence,
      arm: lead.enrolment.variation,
      winner: context.winner,
      start: sequenceStart(lead.enrolment.enrolled_at, context.activatedAt),
      events: lead.events,
      now: context.now,
    });
    for (const entry of trail) {
      const row = rows.get(`${entry.variation}|${entry.position}`);
      if (!row) continue;
      const due = instant(entry.due_at);
      const ran = entry.ran_at === null ? null : instant(entry.ran_at);
      const ranInside = ran !== null && ran >= from;
      if (ranInside || (due >= from && due <= now)) row.reached += 1;
      if (ranInside) row.completed += 1;
    }
    attributeReply(lead, trail, 'replied', rows);
    attributeReply(lead, trail, 'positive', rows);
  }
  return [...rows.values()].map((row) => ({ ...row, reply_rate_pct: percent(row.replied, row.completed) }));
}

function attributeReply(
  lead: LeadFacts,
  trail: TrailEntry[],
  fact: 'replied' | 'positive',
  rows: Map<string, StepFunnelRow>,
): void {
  const reply = lead.first[fact];
  if (!reply) return;
  const at = instant(reply.occurred_at);
  // The latest run at or before the reply; on a tie, the later step of the walk.
  let last: TrailEntry | undefined;
  for (const entry of trail) {
    if (entry.ran_at === null || instant(entry.ran_at) > at) continue;
    if (!last || instant(entry.ran_at) >= instant(last.ran_at as string)) last = entry;
  }
  const row = last ? rows.get(`${last.variation}|${last.position}`) : undefined;
  if (row) row[fact] += 1;
}
