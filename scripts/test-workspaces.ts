/**
 * The test step of `npm test`: every workspace's Vitest suite in turn (all of them, even
 * after one fails, so that one run shows every failure), then one line that sums them,
 * `tests: N passed, N failed, N skipped`, so that a person and CI see the result without
 * scrolling. Exits 1 when any suite failed or gave no report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Manifest {
  name: string;
  workspaces?: string[];
  scripts?: Record<string, string>;
}

/** What Vitest's JSON reporter writes that this sums. */
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const root = join(import.meta.dirname, '..');
const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The workspace folders in the root manifest's order, `examples/*` expanded. */
function workspaceDirs(): string[] {
  return (readManifest(root).workspaces ?? []).flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
      .map((entry) => `${parent}/${entry.name}`)
      .sort();
  });
}

const reports = mkdtempSync(join(tmpdir(), 'ocs-test-reports-'));
const rows: Array<{ name: string; report: VitestReport | null; code: number }> = [];
try {
  for (const dir of workspaceDirs()) {
    const manifest = readManifest(join(root, dir));
    if (!manifest.scripts?.test) continue;
    const output = join(reports, `${manifest.name.replace(/\W+/g, '_')}.json`);
    // The reporters are appended to the script, whose last command is `vitest run`.
    const run = spawnSync(
      'npm',
      ['run', 'test', '-w', dir, '--', '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
      { cwd: root, stdio: 'inherit' },
    );
    const report = existsSync(output) ? (JSON.parse(readFileSync(output, 'utf8')) as VitestReport) : null;
    rows.push({ name: manifest.name, report, code: run.status ?? 1 });
  }
} finally {
  rmSync(reports, { recursive: true, force: true });
}

const total = { passed: 0, failed: 0, skipped: 0 };
process.stdout.write('\nTest suites:\n');
for (const { name, report, code } of rows) {
  if (report === null) {
    process.stdout.write(`  ${name.padEnd(34)} no report (exit code ${code})\n`);
    continue;
  }
  const skipped = report.numPendingTests + report.numTodoTests;
  total.passed += report.numPassedTests;
  total.failed += report.numFailedTests;
  total.skipped += skipped;
  const mark = code === 0 ? '' : `  (exit code ${code})`;
  process.stdout.write(
    `  ${name.padEnd(34)} ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped${mark}\n`,
  );
}
const broken = rows.filter((row) => row.code !== 0 || row.report === null).length;
if (broken > 0) process.stdout.write(`\n${broken} of ${rows.length} suites did not pass`);
// Last, alone on its line: the sum a person and CI read.
process.stdout.write(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
process.exit(broken > 0 ? 1 : 0);
