/**
 * The release dry run, part of `npm test` (and `npm run release:dry-run`): everything a
 * release would do short of writing or publishing, so that a broken release shows before
 * one is made. Nothing in the repository is written: the changesets stay pending.
 *
 * - `changeset status`: the pending changesets and the bumps they make;
 * - `changeset version` on a throwaway copy: the new versions and the CHANGELOG sections it
 *   would write (scripts/release/changelog-preview.ts);
 * - for each published package: its manifest's metadata (scripts/release/manifest-fields.ts);
 *   `npm pack --dry-run`, whose tarball must hold every file of `exports` (JavaScript and
 *   `.d.ts`), the bins, README and LICENSE (scripts/release/packed-files.ts); publint; attw.
 *
 * Runs on the build that `npm test` makes first: the packs skip the packages' `prepack`
 * build (`--ignore-scripts`), which would only build again.
 *
 * Options: `--verbose` prints the CHANGELOG sections whole; `--report <file>` writes the
 * checks' counts (and the figures line) as JSON, for scripts/test-workspaces.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { previewChangelogs } from './release/changelog-preview.ts';
import { manifestProblems, type PublishedManifest } from './release/manifest-fields.ts';
import { exportedTypes, missingFromPack } from './release/packed-files.ts';
import { publishedWorkspaces, readManifest, root } from './workspaces.ts';

const { values: options } = parseArgs({
  options: { verbose: { type: 'boolean', default: false }, report: { type: 'string' } },
});
const require = createRequire(import.meta.url);

/**
 * attw's entries to leave out, as the packages' own attw tests do (they say why):
 * `./openapi.yaml` is a data file, not a module; `./prism` is ESM-only by design.
 */
const attwExclusions: Record<string, string[]> = {
  '@ocs/sdk': ['./openapi.yaml'],
  '@ocs/mock': ['./prism'],
};

interface PackResult {
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

const results: boolean[] = [];
const figures: string[] = [];

/** Runs one check: prints ✓ and what it found, or ✗ and why; counts it. */
async function check(name: string, run: () => string | Promise<string>): Promise<void> {
  try {
    const found = await run();
    results.push(true);
    process.stdout.write(`  ✓ ${name}${found ? `: ${found}` : ''}\n`);
  } catch (error) {
    results.push(false);
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(`  ✗ ${name}: ${message.trim().replaceAll('\n', '\n      ')}\n`);
  }
}

/** A command's output; its stderr (npm's warnings) is kept for the error only. */
function run(command: string, args: string[], cwd = root, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed:\n${failure.stdout ?? ''}${failure.stderr ?? failure.message}`,
      { cause: error },
    );
  }
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const oneLine = (text: string, width = 110) => (text.length > width ? `${text.slice(0, width - 1)}…` : text);

/**
 * The entries, each once, with `(×N)` when repeated: `changeset version` writes one
 * "Updated dependencies" line per changeset that bumped a dependency (on the real repository
 * each carries its commit's hash; the copy has no history, so they read the same).
 */
function countedEntries(entries: string[]): string[] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry, (counts.get(entry) ?? 0) + 1);
  return [...counts].map(([entry, count]) => (count > 1 ? `(×${count}) ${entry}` : entry));
}

process.stdout.write('\nRelease dry run (nothing is written or published; the changesets stay pending)\n');

await check('changeset status', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ocs-changeset-status-'));
  try {
    const output = join(dir, 'status.json');
    const bin = join(require.resolve('@changesets/cli/package.json'), '..', 'bin.js');
    run(process.execPath, [bin, 'status', `--output=${output}`]);
    const status = JSON.parse(readFileSync(output, 'utf8')) as {
      changesets: unknown[];
      releases: { name: string; type: string; oldVersion: string; newVersion: string }[];
    };
    const bumps = status.releases.filter((release) => release.type !== 'none');
    return `${status.changesets.length} changesets pending; ${bumps.map((r) => `${r.name} ${r.type}`).join(', ')}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

await check('changeset version, on a throwaway copy', () => {
  const previews = previewChangelogs();
  const published = new Set(publishedWorkspaces().map(({ manifest }) => manifest.name));
  const empty = previews.filter((preview) => published.has(preview.name) && preview.entries.length === 0);
  if (empty.length > 0) throw new Error(`no CHANGELOG entry for ${empty.map((p) => p.name).join(', ')}`);
  const lines = previews.map((preview) => {
    const body = options.verbose
      ? `\n${preview.section.replace(/^/gm, '        ')}`
      : countedEntries(preview.entries)
          .map((entry) => `\n        - ${oneLine(entry)}`)
          .join('');
    return `\n      ${preview.name} ${preview.oldVersion} → ${preview.newVersion}, CHANGELOG.md gains ${preview.entries.length} entries:${body}`;
  });
  return `would write${lines.join('')}`;
});

for (const { dir, manifest } of publishedWorkspaces()) {
  const pkgDir = join(root, dir);
  const { name } = manifest;

  await check(`${name}: license, repository, homepage, bugs, the root's engines, prepack`, () => {
    const problems = manifestProblems(dir, pkgDir, manifest, readManifest(root) as PublishedManifest);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return '';
  });

  await check(`${name}: npm pack --dry-run holds every exports file (.d.ts included), bins, README, LICENSE`, () => {
    const [pack] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], pkgDir)) as PackResult[];
    if (!pack) throw new Error('npm pack printed no result');
    const problems = missingFromPack(
      manifest,
      pack.files.map((file) => file.path),
    );
    if (problems.length > 0) {
      throw new Error(`${problems.join('\n')}\n(build first: npm run build -w ${name})`);
    }
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    figures.push(
      `${name} ${kB(pack.size)} packed, ${kB(pack.unpackedSize)} unpacked, ${pack.entryCount} files ` +
        `(README ${readme.split('\n').length} lines, ${kB(Buffer.byteLength(readme))})`,
    );
    return `${exportedTypes(manifest).length} .d.ts of exports, ${pack.entryCount} files`;
  });

  await check(`${name}: publint`, async () => {
    const { messages, pkg } = await publint({ pkgDir, level: 'suggestion', pack: 'npm' });
    if (messages.length > 0) throw new Error(messages.map((message) => formatMessage(message, pkg)).join('\n'));
    return 'no error, warning or suggestion';
  });

  await check(`${name}: attw`, () => {
    const bin = join(require.resolve('@arethetypeswrong/cli/package.json'), '..', 'dist', 'index.js');
    const exclusions = attwExclusions[name] ?? [];
    // attw's own `npm pack` skips the `prepack` build too.
    run(
      process.execPath,
      [
        bin,
        '--pack',
        pkgDir,
        '--profile',
        'node16',
        '--format',
        'table',
        ...(exclusions.length > 0 ? ['--exclude-entrypoints', ...exclusions] : []),
      ],
      root,
      { ...process.env, FORCE_COLOR: '0', npm_config_ignore_scripts: 'true' },
    );
    return `every entry resolves for ESM and CJS (node16)${exclusions.length ? `, ${exclusions.join(' ')} left out` : ''}`;
  });
}

const passed = results.filter(Boolean).length;
const failed = results.length - passed;
const figuresLine = figures.length > 0 ? `release: ${figures.join('; ')}` : undefined;
process.stdout.write(`${figuresLine ? `${figuresLine}\n` : ''}release dry run: ${passed} passed, ${failed} failed\n`);
if (options.report) {
  const report = { numPassedTests: passed, numFailedTests: failed, numPendingTests: 0, numTodoTests: 0, figuresLine };
  writeFileSync(options.report, JSON.stringify(report));
}
process.exit(failed > 0 ? 1 : 0);
