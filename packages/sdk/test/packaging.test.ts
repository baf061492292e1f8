/**
 * The package as npm would publish it: publint and `attw --pack` find no problem. Runs on
 * the build (`npm test` runs tsup first).
 *
 * attw's `node16` profile: node10 resolution (no `exports`) is out of scope for a package
 * that needs Node 20. `./openapi.yaml` is a data file, not a module, so attw cannot resolve
 * it as one; it is checked below to be in the package instead.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, expect, it } from 'vitest';

const pkgDir = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

beforeAll(() => {
  if (!existsSync(join(pkgDir, 'dist', 'index.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/sdk` (npm test builds first).');
  }
});

it('publint: no error, warning or suggestion', async () => {
  const { messages, pkg } = await publint({ pkgDir, level: 'suggestion', pack: 'npm' });
  expect(messages.map((message) => formatMessage(message, pkg))).toEqual([]);
}, 60_000);

it('attw --pack: every entry point resolves to types and JavaScript, for ESM and CJS', () => {
  // `npm pack` inside attw: the same files as a publish.
  const bin = join(require.resolve('@arethetypeswrong/cli/package.json'), '..', 'dist', 'index.js');
  let output = '';
  try {
    output = execFileSync(
      process.execPath,
      [bin, '--pack', pkgDir, '--profile', 'node16', '--exclude-entrypoints', './openapi.yaml', '--format', 'table'],
      // Its `npm pack` skips the `prepack` build: the suite runs on the build made before it.
      { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, FORCE_COLOR: '0', npm_config_ignore_scripts: 'true' } },
    );
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    expect.fail(`attw found problems:\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
  // attw exits non-zero on any problem; the table stays in the output for the curious.
  expect(output).toMatch(/"@ocs\/sdk"/);
}, 120_000);

it('ships the document, JSON and YAML', () => {
  const files = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: pkgDir,
    encoding: 'utf8',
  });
  const paths = (JSON.parse(files) as { files: { path: string }[] }[])[0]?.files.map((file) => file.path) ?? [];
  expect(paths).toEqual(
    expect.arrayContaining([
      'src/generated/openapi.json',
      'src/generated/openapi.yaml',
      'dist/index.js',
      'dist/index.cjs',
      'dist/types.d.ts',
      'README.md',
    ]),
  );
}, 60_000);
