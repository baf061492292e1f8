/**
 * The six structural rules of a sequence (section 2). Every broken rule is reported, not
 * only the first, so that one `SEQUENCE_VALIDATION_FAILED` answer lists them all (for the
 * first 40 steps of a sequence longer than that, which is refused for its length). Field
 * paths name the step: `sequence.variation_a[3].branches.yes[0]`.
 */
import { ApiError, type ErrorDetails, type ValidationIssue } from '../http/api-error.ts';
import type { Sequence, SequenceStep } from '../store/records.ts';

export const maxSteps = 40;
export const maxConditionalDepth = 2;
export const maxDelayDays = 90;

type Branch = 'yes' | 'no' | null;

export function sequenceIssues(sequence: Sequence, root = 'sequence'): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  const seenIds = new Map<number, string>();
  let count = 0;
  // The rules of the first `maxSteps` steps walked; past them the sequence is refused for its
  // length, which is said once, and the steps are only counted. A body of 1 MB holds some
  // 30,000 steps, each of which could break every rule: an answer of 100 MB.
  const issues = {
    push(issue: ValidationIssue) {
      if (count <= maxSteps) found.push(issue);
    },
  };

  const walk = (steps: SequenceStep[], path: string, depth: number, branch: Branch) => {
    steps.forEach((step, index) => {
      const at = `${path}[${index}]`;
      count += 1;
      const firstUse = seenIds.get(step.id);
      if (firstUse !== undefined) {
        issues.push({
          field: at,
          message: `step id ${step.id} is already used by ${firstUse}; every step needs a unique integer id`,
          type: 'duplicate_step_id',
        });
      } else {
        seenIds.set(step.id, at);
      }
      if (step.type === 'linkedin_connection') {
        const next = steps[index + 1];
        if (!next || next.type !== 'conditional' || !hasBothBranches(next)) {
          issues.push({
            field: at,
            message:
              'linkedin_connection step must be immediately followed by a conditional step with branches.yes and branches.no',
            type: 'connection_needs_conditional',
          });
        }
      }
      if (step.type === 'linkedin_message' && branch !== 'yes') {
        issues.push({
          field: at,
          message: 'linkedin_message steps are allowed only inside a yes branch (an accepted connection)',
          type: 'message_outside_yes_branch',
        });
      }
      if (step.type === 'email' && (!nonEmpty(step.subject) || !nonEmpty(step.content))) {
        issues.push({
          field: at,
          message: 'email step needs subject and content',
          type: 'email_needs_subject_and_content',
        });
      }
      const delay = step.delay ?? 0;
      if (!Number.isFinite(delay) || delay < 0 || delay > maxDelayDays) {
        issues.push({
          field: `${at}.delay`,
          message: `delay must be 0 to ${maxDelayDays} days`,
          type: 'delay_out_of_range',
        });
      }
      if (step.type === 'conditional') {
        if (!hasBothBranches(step)) {
          issues.push({
            field: at,
            message: 'conditional step needs branches.yes and branches.no',
            type: 'missing_branches',
          });
        }
        if (depth + 1 > maxConditionalDepth) {
          issues.push({
            field: at,
            message: `conditionals nest at most ${maxConditionalDepth} deep`,
            type: 'nesting_too_deep',
          });
        }
        walk(step.branches?.yes ?? [], `${at}.branches.yes`, depth + 1, 'yes');
        walk(step.branches?.no ?? [], `${at}.branches.no`, depth + 1, 'no');
      } else if (step.branches !== undefined) {
        // Branches only mean something on a conditional; steps inside them still count.
        walk(step.branches.yes ?? [], `${at}.branches.yes`, depth, 'yes');
        walk(step.branches.no ?? [], `${at}.branches.no`, depth, 'no');
      }
    });
  };

  walk(sequence.variation_a, `${root}.variation_a`, 0, null);
  if (sequence.variation_b) walk(sequence.variation_b, `${root}.variation_b`, 0, null);
  if (count > maxSteps) {
    found.push({
      field: root,
      message: `a sequence has at most ${maxSteps} steps (both variations and all branches); this one has ${count}`,
      type: 'too_many_steps',
    });
  }
  return found;
}

/** Throws `400 SEQUENCE_VALIDATION_FAILED` listing every broken rule. */
export function assertValidSequence(sequence: Sequence, root = 'sequence', details: ErrorDetails = {}): void {
  const issues = sequenceIssues(sequence, root);
  if (issues.length === 0) return;
  const list = issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
  throw new ApiError(
    400,
    'SEQUENCE_VALIDATION_FAILED',
    // Every one (section 2: the message lists every failed rule); the issues of 40 steps at most.
    `Sequence validation failed (${issues.length} rule${issues.length === 1 ? '' : 's'}): ${list}.`,
    { details: { ...details, errors: issues } },
  );
}

function hasBothBranches(step: SequenceStep): boolean {
  return Array.isArray(step.branches?.yes) && Array.isArray(step.branches?.no);
}

function nonEmpty(value: string | undefined): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Every step of a sequence with where it sits, depth first, in sequence order. */
export function* walkSteps(
  sequence: Sequence,
): Generator<{ step: SequenceStep; variation: 'a' | 'b'; path: string; branch: string | null }> {
  function* visit(
    steps: SequenceStep[],
    variation: 'a' | 'b',
    path: string,
    branch: string | null,
  ): Generator<{ step: SequenceStep; variation: 'a' | 'b'; path: string; branch: string | null }> {
    for (const [index, step] of steps.entries()) {
      const at = `${path}[${index}]`;
      yield { step, variation, path: at, branch };
      for (const side of ['yes', 'no'] as const) {
        const inner = step.branches?.[side];
        if (inner)
          yield* visit(inner, variation, `${at}.branches.${side}`, `${branch ? `${branch}.` : ''}${step.id}.${side}`);
      }
    }
  }
  yield* visit(sequence.variation_a, 'a', 'sequence.variation_a', null);
  if (sequence.variation_b) yield* visit(sequence.variation_b, 'b', 'sequence.variation_b', null);
}
