/**
 * The SDK's reference (`npm run docs`, TypeDoc over typedoc.config.js) builds without a
 * warning that matters: every public export documented, every tag of the generated types
 * known. TypeDoc prints nothing when there is neither an error nor a warning (the SDK
 * README links to examples/webhook-receivers/README.md, a file, not to the folder, which
 * a site cannot copy and which TypeDoc warned about).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it('runs TypeDoc over the SDK public entries with no error and no warning', () => {
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
  const problems = output.split('\n').filter((line) => /\[(warning|error)\]|Found \d+ errors?/.test(line));
  expect(problems, output).toEqual([]);
}, 180_000);
