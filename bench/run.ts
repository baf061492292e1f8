/**
 * `npm run bench`: runs every registered bench, each in its own Node process, prints each
 * one's table, then one line per target, and writes bench-results/summary.json (beside each
 * bench's own bench-results/<name>.json).
 *
 *   npm run bench                          all benches
 *   npm run bench -- sdk-client mock-start only these (an unknown name: exit 2)
 *   npm run bench -- --workspace @ocs/mock the benches of one workspace (what `npm run bench -w` runs)
 *   npm run bench -- --list                the names and what each measures
 *   options: --no-build (use the dist as it is), --strict (exit 1 when a target is not met)
 *
 * BENCH_SECONDS (load per sample, default 5) and BENCH_REPETITIONS (default 3, at least 3)
 * are passed on to the benches. Exit code: 0 when every selected bench ran (met or not),
 * 1 when one failed, 2 for a usage error.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatOverview } from './harness/report.ts';
import {
  type BenchOutcome,
  machine,
  readBenchResult,
  resultFileVariable,
  summarize,
  writeJson,
} from './harness/summary.ts';
import { type BenchEntry, benches, builtFiles, type Workspace, workspaces } from './registry.ts';

const root = new URL('..', import.meta.url).pathname;
const resultsDir = join(root, 'bench-results');

function usageError(message: string): never {
  console.error(message);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        workspace: { type: 'string', multiple: true },
        list: { type: 'boolean', default: false },
        'no-build': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return usageError(
      `${(error as Error).message}; usage: npm run bench -- [name ...] [--workspace <pkg>] [--list] [--no-build] [--strict]`,
    );
  }
}

function select(names: string[], chosenWorkspaces: string[]): BenchEntry[] {
  const known = benches.map((bench) => bench.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    usageError(`unknown bench ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${known.join(', ')}`);
  }
  for (const workspace of chosenWorkspaces) {
    if (!(workspace in workspaces))
      usageError(`unknown workspace "${workspace}"; known: ${Object.keys(workspaces).join(', ')}`);
  }
  return benches.filter(
    (bench) =>
      (names.length === 0 || names.includes(bench.name)) &&
      (chosenWorkspaces.length === 0 || chosenWorkspaces.includes(bench.workspace)),
  );
}

function buildWorkspace(workspace: Workspace): void {
  console.log(`building ${workspace}`);
  const result = spawnSync('npm', ['run', 'build', '-w', workspace], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm run build -w ${workspace} failed (${result.status})`);
}

function build(selected: BenchEntry[]): void {
  const order = Object.keys(workspaces) as Workspace[];
  for (const workspace of order) {
    if (selected.some((bench) => bench.build.includes(workspace))) buildWorkspace(workspace);
  }
}

const isBuilt = (workspace: Workspace) =>
  builtFiles[workspace].every((file) => existsSync(join(root, workspaces[workspace], file)));

/**
 * A build of another `npm test` on this checkout removes dist/ for a moment: before each
 * bench, wait for what it loads to be back (up to 3 minutes), then build it ourselves.
 */
async function ensureBuilt(bench: BenchEntry): Promise<void> {
  for (const workspace of bench.build) {
    if (isBuilt(workspace)) continue;
    console.log(`waiting for the build of ${workspace} (dist/ is missing)`);
    for (let waited = 0; waited < 180 && !isBuilt(workspace); waited++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    if (!isBuilt(workspace)) buildWorkspace(workspace);
  }
}

/** Runs one bench in its own process; stops it by its PID when it outlives its time limit. */
function runOne(bench: BenchEntry): Promise<BenchOutcome> {
  const resultFile = join(resultsDir, `${bench.name}.json`);
  rmSync(resultFile, { force: true });
  const args = ['--import', 'tsx', ...(bench.nodeArgs ?? []), join(root, bench.file), ...(bench.args ?? [])];
  const child = spawn(process.execPath, args, {
    cwd: join(root, workspaces[bench.workspace]),
    stdio: 'inherit',
    env: { ...process.env, [resultFileVariable]: resultFile, BENCH_NAME: bench.name },
  });
  let timedOut = false;
  const limit = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  }, bench.timeoutSeconds * 1000);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      if (timedOut) resolve({ name: bench.name, failed: `stopped after its limit of ${bench.timeoutSeconds} s` });
      else if (code !== 0) resolve({ name: bench.name, failed: `exited with ${signal ?? `code ${code}`}` });
      else if (!existsSync(resultFile)) resolve({ name: bench.name, failed: 'wrote no result' });
      else resolve(readBenchResult(resultFile));
    });
  });
}

const { values, positionals } = parse();
if (values.list) {
  const width = Math.max(...benches.map((bench) => bench.name.length));
  for (const bench of benches) {
    console.log(
      `${bench.name.padEnd(width)}  ${bench.workspace.padEnd(11)}  ${bench.needsDatabase ? 'DATABASE_URL  ' : '              '}${bench.summary}`,
    );
  }
  process.exit(0);
}
const selected = select(positionals, values.workspace ?? []);
const createdAt = new Date().toISOString();
const startLoad = machine().loadAverage;
if (!values['no-build'] && !process.env.BENCH_NO_BUILD) build(selected);

const outcomes: BenchOutcome[] = [];
for (const bench of selected) {
  if (bench.needsDatabase && !process.env.DATABASE_URL) {
    console.log(`\n== ${bench.name}: skipped (needs PostgreSQL: set DATABASE_URL)`);
    outcomes.push({ name: bench.name, skipped: 'needs DATABASE_URL' });
    continue;
  }
  console.log('');
  await ensureBuilt(bench);
  outcomes.push(await runOne(bench));
}

const summary = summarize(outcomes, startLoad, createdAt);
const summaryFile = join(resultsDir, 'summary.json');
writeJson(summaryFile, summary);
console.log(
  `\n== targets: ${summary.targets.met} met, ${summary.targets.notMet} not met (Node ${summary.node}, ${summary.cpus} cores, load average ${startLoad.join(' ')} at start, ${summary.loadAverage.end.join(' ')} at end)\n`,
);
console.log(formatOverview(outcomes));
console.log(`\nJSON: ${summaryFile}`);
const failed = outcomes.some((outcome) => 'failed' in outcome);
process.exit(failed || (values.strict && summary.targets.notMet > 0) ? 1 : 0);
