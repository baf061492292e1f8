/**
 * Where one sequence lead is in its campaign's sequence, computed from what happened to it:
 * the steps that came due and ran (the trail), and the next step with when it is due, or
 * why there is none (paused by a reply, sequence completed). The engine (issue 5) asks this
 * what to send, the queue shows it, and the step funnel counts its trails, so all three
 * agree.
 *
 * The rules:
 * - The lead follows `variation_b` when its arm is `b` and the sequence still has one,
 *   otherwise `variation_a`. A lead without an arm yet is walked with the arm it will be
 *   drawn into (`leadArm` in campaign-queue.ts); the analytics walk it as `variation_a`.
 * - The first step is due at `start` (the later of the enrolment and the campaign's
 *   activation); every later step at the previous step's run plus its own `delay` in days.
 * - A step ran when an event of its kind names its `step_id` (`runKinds`). A conditional
 *   runs at its due time, taking `yes` when the lead was connected (accepted, or already
 *   connected when the request step ran) at or before that time, else `no`; an empty
 *   branch goes on after the conditional.
 * - After a step ran, the lead goes on with the step whose ID the event recorded as next
 *   (`StepRunData.next_step_id`), wherever it now is, so that a replaced sequence continues
 *   from the lead's next step by ID; a lead whose next step ID no longer exists completes.
 *   Events without that record go on with the following step in sequence order.
 * - A lead following steps that are not its arm's own (arm `b` on `variation_a` once
 *   `variation_b` is gone, or arm `a` after `b` was promoted) continues at the same position:
 *   an event of a step that is no longer in the sequence counts for the step now at its
 *   recorded `position` (same index, inside the same branch).
 * - The first reply pauses the sequence: no step runs after it.
 */
import { type ActivityEvent, type Arm, byTime, connectionKinds, instant, runKinds } from './activity.ts';
import { type Channel, stepChannel } from './channels.ts';
import type { Sequence, SequenceStep } from '../store/records.ts';

const dayMs = 86_400_000;

/** A place in a list of steps: indexes, with the branch taken at each conditional. */
type Path = Array<number | 'yes' | 'no'>;

export interface ProgressInput {
  sequence: Sequence | [] | null;
  /** The lead's arm; null until its first step is sent. */
  arm: Arm | null;
  /** The arm promoted last (the campaign's `ab_winner`), or null. */
  winner: Arm | null;
  /** When the sequence starts for the lead: the later of its enrolment and the activation. */
  start: string;
  /** The lead's events, in any order. */
  events: readonly ActivityEvent[];
  now: string;
}

export interface TrailEntry {
  step: SequenceStep;
  /** Which variation's steps the lead follows. */
  variation: Arm;
  /** Indexes and branches (`3.yes.0`), as `StepRunData.position` records them. */
  position: string;
  /** The step's conditionals by step ID (`4.yes`), null at the top level. */
  branch: string | null;
  due_at: string;
  /** When it ran; null for a step that came due and has not run. */
  ran_at: string | null;
  /** For conditionals, the branch taken. */
  outcome: 'yes' | 'no' | null;
  /** The event that recorded it running (not for conditionals). */
  event: ActivityEvent | null;
}

export interface NextStep {
  step: SequenceStep;
  variation: Arm;
  position: string;
  branch: string | null;
  channel: Channel;
  due_at: string;
}

export type Progress =
  /** The next step is `next`, due at `next.due_at` (in the past: overdue). */
  | { state: 'pending'; next: NextStep; trail: TrailEntry[] }
  /** A reply at `at` stopped the sequence before `next`. */
  | { state: 'paused'; at: string; next: NextStep; trail: TrailEntry[] }
  /** Every step the lead goes through ran; `at` is when the last one did. */
  | { state: 'completed'; at: string; trail: TrailEntry[] }
  /** The campaign has no steps for the lead. */
  | { state: 'no_steps'; trail: TrailEntry[] };

/** The steps a lead of `arm` follows, and whose they are. */
export function followedSteps(sequence: Sequence, arm: Arm | null): { steps: SequenceStep[]; variation: Arm } {
  const b = sequence.variation_b ?? [];
  if (arm === 'b' && b.length > 0) return { steps: b, variation: 'b' };
  return { steps: sequence.variation_a, variation: 'a' };
}

export function sequenceProgress(input: ProgressInput): Progress {
  const sequence = Array.isArray(input.sequence) || input.sequence === null ? null : input.sequence;
  if (!sequence) return { state: 'no_steps', trail: [] };
  const { steps, variation } = followedSteps(sequence, input.arm);
  if (steps.length === 0) return { state: 'no_steps', trail: [] };
  const foreign = (input.arm === 'b' && variation === 'a') || (input.arm === 'a' && input.winner === 'b');
  const now = instant(input.now);
  const events = byTime(input.events);
  const firstReply = events.find((e) => e.kind === 'reply_received');
  const pausedAt = firstReply ? instant(firstReply.occurred_at) : null;
  const connections = events.filter((e) => connectionKinds.includes(e.kind)).map((e) => instant(e.occurred_at));
  // Only a lead on steps not its arm's own needs them (most leads are not).
  const ownIds = foreign ? new Set(allSteps(steps).map((s) => s.id)) : new Set<number>();

  const findRun = (step: SequenceStep, position: string): ActivityEvent | undefined => {
    const kinds = runKinds[step.type];
    const byId = events.find((e) => e.step_id === step.id && kinds.includes(e.kind));
    if (byId || !foreign) return byId;
    return events.find(
      (e) => kinds.includes(e.kind) && e.data.position === position && (e.step_id === null || !ownIds.has(e.step_id)),
    );
  };

  const trail: TrailEntry[] = [];
  const visited = new Set<string>();
  let path: Path | null = [0];
  let due = instant(input.start);
  let last = due;
  while (path) {
    const position = path.join('.');
    // A replaced sequence could send a lead back to a step it already went through.
    if (visited.has(position)) break;
    visited.add(position);
    const step = stepAt(steps, path);
    const place = { step, variation, position, branch: branchLabel(steps, path), due_at: iso(due) };
    const next = (): NextStep => ({ ...place, channel: stepChannel(step.type) });
    if (step.type === 'conditional') {
      if (pausedAt !== null && pausedAt <= due) return { state: 'paused', at: iso(pausedAt), next: next(), trail };
      if (due > now) return { state: 'pending', next: next(), trail };
      const outcome = connections.some((at) => at <= due) ? 'yes' : 'no';
      trail.push({ ...place, ran_at: iso(due), outcome, event: null });
      last = due;
      path = branchEntry(steps, path, outcome);
      if (path) due += delayMs(stepAt(steps, path));
      continue;
    }
    const run = findRun(step, position);
    if (!run) {
      // It came due (and counts as reached) unless a reply stopped the sequence first.
      if (due <= now && (pausedAt === null || due < pausedAt)) {
        trail.push({ ...place, ran_at: null, outcome: null, event: null });
      }
      if (pausedAt !== null) return { state: 'paused', at: iso(pausedAt), next: next(), trail };
      return { state: 'pending', next: next(), trail };
    }
    const ranAt = instant(run.occurred_at);
    trail.push({ ...place, ran_at: iso(ranAt), outcome: null, event: run });
    last = ranAt;
    path = pathAfterRun(steps, path, run, foreign);
    if (path) due = ranAt + delayMs(stepAt(steps, path));
  }
  return { state: 'completed', at: iso(last), trail };
}

/** Where a lead goes after `run` ran the step at `path` (see the rules above). */
function pathAfterRun(steps: SequenceStep[], path: Path, run: ActivityEvent, foreign: boolean): Path | null {
  const recorded = run.data.next_step_id;
  if (recorded === undefined) return successor(steps, path);
  if (recorded === null) return null;
  const found = locate(steps, recorded);
  if (found) return found;
  return foreign ? successor(steps, path) : null;
}

/** The first step of a conditional's branch, or what follows the conditional when it is empty. */
function branchEntry(steps: SequenceStep[], path: Path, side: 'yes' | 'no'): Path | null {
  const branch = stepAt(steps, path).branches?.[side] ?? [];
  return branch.length > 0 ? [...path, side, 0] : successor(steps, path);
}

/** The step after `path` in sequence order: the next sibling, or what follows its conditional. */
export function successor(steps: SequenceStep[], path: Path): Path | null {
  let current = path;
  for (;;) {
    const index = current[current.length - 1] as number;
    const parent = current.slice(0, -1);
    if (index + 1 < containerAt(steps, parent).length) return [...parent, index + 1];
    if (parent.length === 0) return null;
    current = parent.slice(0, -1);
  }
}

function containerAt(steps: SequenceStep[], prefix: Path): SequenceStep[] {
  if (prefix.length === 0) return steps;
  const side = prefix[prefix.length - 1] as 'yes' | 'no';
  return stepAt(steps, prefix.slice(0, -1)).branches?.[side] ?? [];
}

function stepAt(steps: SequenceStep[], path: Path): SequenceStep {
  const index = path[path.length - 1] as number;
  const step = containerAt(steps, path.slice(0, -1))[index];
  if (!step) throw new Error(`no step at ${path.join('.')}`);
  return step;
}

/** `4.yes` for a step inside the `yes` branch of step 4; nested: `4.yes.6.no`. */
function branchLabel(steps: SequenceStep[], path: Path): string | null {
  const parts: string[] = [];
  for (let i = 1; i < path.length; i += 2) parts.push(`${stepAt(steps, path.slice(0, i)).id}.${String(path[i])}`);
  return parts.length > 0 ? parts.join('.') : null;
}

/** The first step with this ID, depth first in sequence order. */
function locate(steps: SequenceStep[], id: number, prefix: Path = []): Path | null {
  for (const [index, step] of steps.entries()) {
    const here = [...prefix, index];
    if (step.id === id) return here;
    for (const side of ['yes', 'no'] as const) {
      const inner = step.branches?.[side];
      const found = inner ? locate(inner, id, [...here, side]) : null;
      if (found) return found;
    }
  }
  return null;
}

function allSteps(steps: SequenceStep[]): SequenceStep[] {
  return steps.flatMap((step) => [step, ...allSteps(step.branches?.yes ?? []), ...allSteps(step.branches?.no ?? [])]);
}

/**
 * Where each step of `steps` sits, in sequence order (a conditional before its branches,
 * `yes` before `no`): the positions `StepRunData.position` records and trails carry.
 */
export function stepPositions(
  steps: SequenceStep[],
): Array<{ step: SequenceStep; position: string; branch: string | null }> {
  const result: Array<{ step: SequenceStep; position: string; branch: string | null }> = [];
  const visit = (list: SequenceStep[], prefix: Path) => {
    for (const [index, step] of list.entries()) {
      const path = [...prefix, index];
      result.push({ step, position: path.join('.'), branch: branchLabel(steps, path) });
      for (const side of ['yes', 'no'] as const) if (step.branches?.[side]) visit(step.branches[side], [...path, side]);
    }
  };
  visit(steps, []);
  return result;
}

/**
 * What the engine records in an event when the step at `position` runs: the position and
 * the ID of the step that follows it (null when none), so the lead continues correctly if
 * the sequence changes later.
 */
export function stepRunRecord(
  steps: SequenceStep[],
  position: string,
): { position: string; next_step_id: number | null } {
  const path: Path = position.split('.').map((part) => (part === 'yes' || part === 'no' ? part : Number(part)));
  const after = successor(steps, path);
  return { position, next_step_id: after ? stepAt(steps, after).id : null };
}

function delayMs(step: SequenceStep): number {
  return (step.delay ?? 0) * dayMs;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
