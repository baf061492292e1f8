/**
 * The line `npm test` ends with: a test file that failed before its tests ran (a `beforeAll`
 * that threw, an import error) is a failure, never a skip, so that the line cannot read
 * `0 failed` of a run that exits 1. Read from a real Vitest JSON report (a fixture suite run
 * here) and from the report the SDK's suite wrote on a machine without Chromium.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSuite, type SuiteReport, suiteRow, totalLine } from './test-summary.ts';
import { root } from './workspaces.ts';

const fixtures = join(import.meta.dirname, 'test-summary-fixtures');
const scratch = mkdtempSync(join(tmpdir(), 'ocs-test-summary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const passingSuite = { numPassedTests: 12, numFailedTests: 0, numPendingTests: 1, numTodoTests: 0 };

describe('a real Vitest run with a file that fails in beforeAll', () => {
  let report: SuiteReport;
  let code: number;

  beforeAll(() => {
    const output = join(scratch, 'report.json');
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--config',
        join(fixtures, 'vitest.config.ts'),
        '--reporter=json',
        `--outputFile.json=${output}`,
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    code = run.status ?? 1;
    report = JSON.parse(readFileSync(output, 'utf8')) as SuiteReport;
  }, 90_000);

  it('is what the summing guards against: Vitest counts no failed test, yet exits 1', () => {
    expect(code).toBe(1);
    expect(report.numFailedTests).toBe(0);
    expect(report.numPassedTests).toBe(1);
  });

  it('counts the file as failed, its test not as skipped', () => {
    const run = { name: 'fixtures', report, code };
    expect(countSuite(run)).toEqual({ passed: 1, failed: 1, skipped: 1, filesNotRun: 1, unexplained: 0 });
    expect(suiteRow(run)).toMatch(
      /^ {2}fixtures +1 passed, 1 failed \(1 file failed to run\), 1 skipped {2}\(exit code 1\)$/,
    );
  });

  it('says so in the last line, summed with the other suites', () => {
    expect(
      totalLine([
        { name: '@ocs/sdk', report: passingSuite, code: 0 },
        { name: 'fixtures', report, code },
      ]),
    ).toBe('tests: 13 passed, 1 failed (1 file failed to run), 2 skipped');
  });
});

it("reads the SDK's report without Chromium (its browser test failed in beforeAll) as a failure", () => {
  const report = JSON.parse(readFileSync(join(fixtures, 'sdk-without-chromium.json'), 'utf8')) as SuiteReport;
  expect(report.numFailedTests).toBe(0);
  expect(totalLine([{ name: '@ocs/sdk', report, code: 1 }])).toBe(
    'tests: 0 passed, 1 failed (1 file failed to run), 0 skipped',
  );
});

it('counts a suite that exited with an error outside any test, and one that gave no report', () => {
  const runs = [
    { name: '@ocs/server', report: passingSuite, code: 1 },
    { name: '@ocs/mock', report: null, code: 2 },
  ];
  expect(suiteRow(runs[1] as (typeof runs)[number])).toBe(`  ${'@ocs/mock'.padEnd(34)} no report (exit code 2)`);
  expect(totalLine(runs)).toBe('tests: 12 passed, 2 failed (2 suites failed outside any test), 1 skipped');
});

it('says 0 failed only when nothing failed', () => {
  expect(totalLine([{ name: '@ocs/sdk', report: passingSuite, code: 0 }])).toBe(
    'tests: 12 passed, 0 failed, 1 skipped',
  );
});
