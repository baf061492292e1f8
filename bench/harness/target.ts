/**
 * A target: a bound on the ratio of subject to baseline (medians of the same run), or, for a
 * bench without a baseline, on the subject's median itself. Evaluates to met or not met.
 */

export interface Target {
  op: '>=' | '<=';
  value: number;
  /** What the bound applies to: the ratio (default) or the subject's median. */
  on?: 'ratio' | 'subject';
  /** How the issue states it, when the ratio reads differently ("10 x faster"). */
  says?: string;
}

export type Verdict = 'met' | 'not met';

export function meets(target: Target, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  return target.op === '>=' ? value >= target.value : value <= target.value;
}

export function verdict(met: boolean): Verdict {
  return met ? 'met' : 'not met';
}

export function describeTarget(target: Target): string {
  const bound = `${target.op} ${target.value}`;
  return target.says ? `${bound} (${target.says})` : bound;
}
