/**
 * One comparison of a bench: the subject's samples beside its baseline's, from the same
 * interleaved run, their min and median, the ratio of the medians (subject / baseline), and
 * whether the target (with any further checks, such as "heap flat") is met.
 */
import { median, min } from './stats.ts';
import { describeTarget, meets, type Target } from './target.ts';

export interface Series {
  label: string;
  /** req/s, ops/s, ms, MB ... */
  unit: string;
  samples: number[];
}

export interface SeriesSummary extends Series {
  min: number;
  median: number;
}

/** A condition beside the ratio that the target also requires. */
export interface Check {
  name: string;
  met: boolean;
  detail: string;
}

export interface Comparison {
  name: string;
  subject: SeriesSummary;
  baseline: SeriesSummary | null;
  /** median(subject) / median(baseline); null without a baseline. */
  ratio: number | null;
  /** subject / baseline of each repetition, for a look at the spread. */
  pairedRatios: number[];
  target: Target | null;
  /** The target as one line, e.g. ">= 0.7". */
  targetText: string | null;
  checks: Check[];
  /** null when the comparison has no target (reported for information). */
  met: boolean | null;
  verdict: 'met' | 'not met' | 'info';
}

function summarize(series: Series): SeriesSummary {
  return { ...series, min: min(series.samples), median: median(series.samples) };
}

export function compare(options: {
  name: string;
  subject: Series;
  baseline?: Series;
  target?: Target;
  checks?: Check[];
}): Comparison {
  const subject = summarize(options.subject);
  const baseline = options.baseline ? summarize(options.baseline) : null;
  const ratio = baseline ? subject.median / baseline.median : null;
  const pairedRatios = baseline
    ? subject.samples.map((value, i) => value / (baseline.samples[i] ?? Number.NaN)).filter(Number.isFinite)
    : [];
  const target = options.target ?? null;
  const checks = options.checks ?? [];
  let met: boolean | null = null;
  if (target) {
    const value = target.on === 'subject' ? subject.median : (ratio ?? Number.NaN);
    met = meets(target, value) && checks.every((check) => check.met);
  }
  return {
    name: options.name,
    subject,
    baseline,
    ratio,
    pairedRatios,
    target,
    targetText: target ? describeTarget(target) : null,
    checks,
    met,
    verdict: met === null ? 'info' : met ? 'met' : 'not met',
  };
}
