/**
 * The sum `npm test` ends with (scripts/test-workspaces.ts): one row per suite and one last
 * line, `tests: N passed, N failed, N skipped`, read from Vitest's JSON reports.
 *
 * A test file that failed before its tests ran (an import error, a `beforeAll` that threw,
 * such as the browser tests without Chromium) has no failed test in the report: its tests
 * are `skipped` and only the file's `status` says `failed`. Such a file counts as failed
 * (`1 failed (1 file failed to run)`), its tests not as skipped; so does a suite that
 * exited with an error but whose report holds no failure (Vitest's unhandled errors), and
 * one that gave no report at all. The last line never says `0 failed` of a run that failed.
 */

/** What Vitest's JSON reporter writes that this reads (the release dry run writes the counts only). */
export interface SuiteReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ status: string }>;
  }>;
  /** The release dry run's packed sizes and file counts. */
  figuresLine?: string;
}

export interface SuiteRun {
  name: string;
  /** The suite's report, or null when it wrote none (it did not get as far as running Vitest). */
  report: SuiteReport | null;
  /** The suite's exit code. */
  code: number;
}

export interface SuiteCounts {
  passed: number;
  /** Failed tests, plus one for each file that failed to run. */
  failed: number;
  skipped: number;
  /** Test files that failed before their tests ran. */
  filesNotRun: number;
  /** 1 when the suite failed (exit code, or no report) with nothing above saying so. */
  unexplained: number;
}

/** Files whose status is failed though none of their tests failed: they failed to run. */
function filesNotRun(report: SuiteReport): NonNullable<SuiteReport['testResults']> {
  return (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  );
}

export function countSuite(run: SuiteRun): SuiteCounts {
  if (run.report === null) return { passed: 0, failed: 0, skipped: 0, filesNotRun: 0, unexplained: 1 };
  const { report } = run;
  const notRun = filesNotRun(report);
  // The tests of a file that failed to run were never skipped by anyone: they are its failure.
  const notRunTests = notRun.reduce(
    (sum, file) => sum + file.assertionResults.filter((test) => test.status !== 'passed').length,
    0,
  );
  const failed = report.numFailedTests + notRun.length;
  return {
    passed: report.numPassedTests,
    failed,
    skipped: Math.max(0, report.numPendingTests + report.numTodoTests - notRunTests),
    filesNotRun: notRun.length,
    unexplained: run.code !== 0 && failed === 0 ? 1 : 0,
  };
}

/** The row of one suite: `@ocs/sdk   120 passed, 1 failed (1 file failed to run), 0 skipped`. */
export function suiteRow(run: SuiteRun): string {
  const name = run.name.padEnd(34);
  if (run.report === null) return `  ${name} no report (exit code ${run.code})`;
  const counts = countSuite(run);
  const mark = run.code === 0 ? '' : `  (exit code ${run.code})`;
  return `  ${name} ${sumText(counts)}${mark}`;
}

/** The last line: every suite summed. */
export function totalLine(runs: readonly SuiteRun[]): string {
  const total: SuiteCounts = { passed: 0, failed: 0, skipped: 0, filesNotRun: 0, unexplained: 0 };
  for (const run of runs) {
    const counts = countSuite(run);
    for (const key of Object.keys(total) as Array<keyof SuiteCounts>) total[key] += counts[key];
  }
  return `tests: ${sumText(total)}`;
}

function sumText(counts: SuiteCounts): string {
  const why = [
    counts.filesNotRun > 0 ? `${counts.filesNotRun} ${plural(counts.filesNotRun, 'file')} failed to run` : '',
    counts.unexplained > 0
      ? `${counts.unexplained} ${plural(counts.unexplained, 'suite')} failed outside any test`
      : '',
  ].filter(Boolean);
  const failed = counts.failed + counts.unexplained;
  return `${counts.passed} passed, ${failed} failed${why.length > 0 ? ` (${why.join('; ')})` : ''}, ${counts.skipped} skipped`;
}

const plural = (count: number, word: string) => (count === 1 ? word : `${word}s`);
