/**
 * The test step of `npm test`: every workspace's Vitest suite in turn (all of them, even
 * after one fails, so that one run shows every failure), then the tests of scripts/ and the
 * release dry run (scripts/release-dry-run.ts), then one line that sums them,
 * `tests: N passed, N failed, N skipped` (scripts/test-summary.ts: a test file that failed
 * to run counts as failed), so that a person and CI see the result without scrolling.
 * Above it, the release figures and, when Chromium is missing, the one line that says what
 * to install. Exits 1 when any suite failed or gave no report.
 *
 * `tsx scripts/test-workspaces.ts [workspace dir...] [-- vitest filter...]` runs only those
 * workspaces' suites (all when none is named), passing the filters to Vitest.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath, chromiumProblem } from './test-support/chromium.ts';
import { type SuiteReport, type SuiteRun, suiteRow, totalLine } from './test-summary.ts';
import { readManifest, root, workspaceDirs } from './workspaces.ts';

const argv = process.argv.slice(2);
const separator = argv.includes('--') ? argv.indexOf('--') : argv.length;
const onlyDirs = argv.slice(0, separator);
// A filter matches in some suites only: the others pass with no test instead of failing.
const vitestFilters = separator < argv.length ? ['--passWithNoTests', ...argv.slice(separator + 1)] : [];

const chromium = chromiumProblem();
process.stdout.write(chromium ? `${chromium}\n` : `Browser tests: Chromium at ${chromiumPath()}\n`);

const reports = mkdtempSync(join(tmpdir(), 'ocs-test-reports-'));
const rows: SuiteRun[] = [];

/** Runs one suite, which writes its report to `output`, and keeps its row. */
function runSuite(name: string, output: string, command: string, args: string[]) {
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const report = existsSync(output) ? (JSON.parse(readFileSync(output, 'utf8')) as SuiteReport) : null;
  rows.push({ name, report, code: run.status ?? 1 });
}

try {
  for (const dir of workspaceDirs().filter((dir) => onlyDirs.length === 0 || onlyDirs.includes(dir))) {
    const manifest = readManifest(join(root, dir));
    if (!manifest.scripts?.test) continue;
    const output = join(reports, `${manifest.name.replace(/\W+/g, '_')}.json`);
    // The reporters are appended to the script, whose last command is `vitest run`.
    runSuite(manifest.name, output, 'npm', [
      'run',
      'test',
      '-w',
      dir,
      '--',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${output}`,
      ...vitestFilters,
    ]);
  }
  // The root scripts' own tests (the release checks, the browser tests' helpers).
  const scripts = join(reports, 'scripts.json');
  runSuite('scripts', scripts, 'npx', [
    'vitest',
    'run',
    '--config',
    'scripts/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${scripts}`,
    ...vitestFilters,
  ]);
  const release = join(reports, 'release.json');
  runSuite('release dry run', release, process.execPath, [
    '--import',
    'tsx',
    join(root, 'scripts', 'release-dry-run.ts'),
    '--report',
    release,
  ]);
} finally {
  rmSync(reports, { recursive: true, force: true });
}

process.stdout.write('\nTest suites:\n');
for (const row of rows) process.stdout.write(`${suiteRow(row)}\n`);
const figures = rows.find((row) => row.report?.figuresLine)?.report?.figuresLine;
if (figures) process.stdout.write(`\n${figures}\n`);
const broken = rows.filter((row) => row.code !== 0 || row.report === null).length;
if (broken > 0) process.stdout.write(`\n${broken} of ${rows.length} suites did not pass`);
// Said again here, where it is read: the browser tests above failed for this.
if (chromium) process.stdout.write(`\n${chromium}`);
// Last, alone on its line: the sum a person and CI read.
process.stdout.write(`\n${totalLine(rows)}\n`);
process.exit(broken > 0 ? 1 : 0);
