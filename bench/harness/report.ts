/** The human side of a bench: its table, and the runner's one-line-per-target overview. */
import type { Comparison, SeriesSummary } from './comparison.ts';
import type { BenchOutcome, BenchResult } from './summary.ts';

/** 12,345 / 123.4 / 1.234: as many digits as the magnitude deserves. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** Up to 10 values in the table; more are in the JSON. */
function listed(name: string, values: string[]): string {
  return values.length <= 10 ? `${name} ${values.join(', ')}` : `${values.length} ${name} in the JSON`;
}

function seriesLine(role: string, series: SeriesSummary, labelWidth: number, unitWidth: number): string {
  return [
    `    ${pad(role, 9)}`,
    pad(series.label, labelWidth),
    pad(series.unit, unitWidth),
    `min ${pad(formatNumber(series.min), 9, true)}`,
    `median ${pad(formatNumber(series.median), 9, true)}`,
    `  ${listed('samples', series.samples.map(formatNumber))}`,
  ].join(' ');
}

function comparisonLines(comparison: Comparison): string[] {
  const labelWidth = Math.max(comparison.subject.label.length, comparison.baseline?.label.length ?? 0);
  const unitWidth = Math.max(comparison.subject.unit.length, comparison.baseline?.unit.length ?? 0);
  const lines = [`  ${comparison.name}`, seriesLine('subject', comparison.subject, labelWidth, unitWidth)];
  if (comparison.baseline) lines.push(seriesLine('baseline', comparison.baseline, labelWidth, unitWidth));
  const parts: string[] = [];
  if (comparison.ratio !== null) {
    const perRepetition = listed(
      'per repetition',
      comparison.pairedRatios.map((r) => r.toFixed(3)),
    );
    parts.push(`ratio of the medians ${comparison.ratio.toFixed(3)} (${perRepetition})`);
  }
  if (comparison.targetText) {
    const on = comparison.target?.on === 'subject' ? 'median ' : '';
    parts.push(`target ${on}${comparison.targetText}: ${comparison.verdict.toUpperCase()}`);
  } else {
    parts.push('no target (for information)');
  }
  lines.push(`    ${parts.join('; ')}`);
  for (const check of comparison.checks) lines.push(`    ${check.name}: ${check.met ? 'yes' : 'NO'} (${check.detail})`);
  return lines;
}

export function formatBench(result: BenchResult): string {
  const settings = Object.entries(result.settings)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
  const lines = [`== ${result.name}: ${result.title}`, `   ${settings}; ${result.seconds.toFixed(0)} s`];
  for (const note of result.notes) lines.push(`   ${note}`);
  for (const comparison of result.comparisons) lines.push('', ...comparisonLines(comparison));
  return lines.join('\n');
}

/** One line per comparison of every bench, for the end of a run. */
export function formatOverview(outcomes: BenchOutcome[]): string {
  const rows: string[][] = [['bench', 'comparison', 'ratio', 'target', 'result']];
  for (const outcome of outcomes) {
    if ('skipped' in outcome) rows.push([outcome.name, `skipped: ${outcome.skipped}`, '', '', '']);
    else if ('failed' in outcome) rows.push([outcome.name, `FAILED: ${outcome.failed}`, '', '', '']);
    else {
      for (const c of outcome.comparisons) {
        const value =
          c.target?.on === 'subject'
            ? `${formatNumber(c.subject.median)} ${c.subject.unit}`
            : (c.ratio?.toFixed(3) ?? '');
        rows.push([outcome.name, c.name, value, c.targetText ?? '', c.verdict]);
      }
    }
  }
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => pad(cell, widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
