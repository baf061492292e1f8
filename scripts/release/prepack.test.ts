/**
 * `prepack` builds before a pack: `npm pack` of @ocs/sdk, scripts not skipped, on a copy
 * with no `dist/` at all, packs every file its `exports` name, the `.d.ts` included. The
 * copy keeps the repository's layout (its tsconfig extends the root's) and reaches the
 * installed packages through a link to the root's node_modules; the package's own `dist/`,
 * which other suites read, is never touched.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readManifest, root } from '../workspaces.ts';
import { exportedTypes, missingFromPack } from './packed-files.ts';

const copy = mkdtempSync(join(tmpdir(), 'ocs-prepack-'));
const sdk = join(copy, 'packages', 'sdk');
let packed: string[];

beforeAll(() => {
  cpSync(join(root, 'tsconfig.base.json'), join(copy, 'tsconfig.base.json'));
  cpSync(join(root, 'packages', 'sdk'), sdk, {
    recursive: true,
    filter: (source) => !/[/\\](dist|node_modules)$/.test(source),
  });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  expect(existsSync(join(sdk, 'dist'))).toBe(false);
  const output = execFileSync('npm', ['pack', '--dry-run', '--json'], {
    cwd: sdk,
    encoding: 'utf8',
    // The build's own output goes to stderr (`prepack` sends it there), the list to stdout.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_ignore_scripts: 'false', npm_config_update_notifier: 'false' },
    timeout: 240_000,
  });
  const [result] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
  packed = (result?.files ?? []).map((file) => file.path);
}, 300_000);

afterAll(() => rmSync(copy, { recursive: true, force: true }));

it('builds in prepack: the tarball of a copy without dist/ holds every exports file, .d.ts included', () => {
  const manifest = readManifest(sdk);
  expect(missingFromPack(manifest, packed)).toEqual([]);
  expect(exportedTypes(manifest).length).toBeGreaterThan(0);
  for (const types of exportedTypes(manifest)) expect(packed).toContain(types);
  // Built by the pack, into the copy: it had no dist/ before.
  expect(existsSync(join(sdk, 'dist', 'index.d.ts'))).toBe(true);
});
