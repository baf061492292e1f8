/**
 * Reading a stored sequence: whether there is one, whether it has a `variation_b` to test or
 * promote, and where a step ID is (at any depth, in either variation).
 */
import type { Sequence, SequenceStep } from '../store/records.ts';
import { walkSteps } from './sequence-rules.ts';

/** The campaign's sequence, or null when it has none (stored as an empty list, or null on old rows). */
export function storedSequence(value: unknown): Sequence | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return value as Sequence;
}

/** A `variation_b` with at least one step: what A/B testing and promotion need. */
export function hasVariationB(sequence: Sequence | null): boolean {
  return (sequence?.variation_b?.length ?? 0) > 0;
}

export interface LocatedStep {
  step: SequenceStep;
  variation: 'a' | 'b';
  /** `sequence.variation_a[3].branches.yes[0]` */
  path: string;
  /** `4.yes` inside conditionals, null at the top level. */
  branch: string | null;
}

/** Every step with this ID (a legacy sequence may have several), in sequence order. */
export function findSteps(sequence: Sequence, stepId: number, variation?: 'a' | 'b'): LocatedStep[] {
  const found: LocatedStep[] = [];
  for (const located of walkSteps(sequence)) {
    if (located.step.id === stepId && (variation === undefined || located.variation === variation)) {
      found.push(located);
    }
  }
  return found;
}

/** Steps of one variation, branches included. */
export function countSteps(sequence: Sequence, variation: 'a' | 'b'): number {
  let count = 0;
  for (const located of walkSteps(sequence)) if (located.variation === variation) count += 1;
  return count;
}
