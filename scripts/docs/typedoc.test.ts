/**
 * The SDK's reference (`npm run docs`, TypeDoc over typedoc.config.js) builds without a
 * warning that matters: every public export documented, every tag of the generated types
 * known. The one warning left is TypeDoc's note that the SDK README links to a folder
 * (examples/webhook-receivers), which a site cannot copy; the link works on GitHub.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it('runs TypeDoc over the SDK public entries with no warning but the README folder link', () => {
  const result = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--emit', 'none'],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  );
  const output = stripVTControlCharacters(`${result.stdout}${result.stderr}`);
  expect(result.status, output).toBe(0);
  const warnings = output
    .split('\n')
    .filter((line) => line.includes('[warning]') && !line.includes('Found 0 errors'))
    .filter((line) => !/The relative path \S+\/examples\/webhook-receivers is not a file/.test(line));
  expect(warnings).toEqual([]);
  expect(output).toContain('Found 0 errors');
}, 180_000);
