/** The checked-in generated files equal a fresh generation from openapi/openapi.yaml. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it('generated files are up to date with the document', () => {
  let output = '';
  try {
    output = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check'], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    expect.fail(`${failure.stdout ?? ''}${failure.stderr ?? ''}`);
  }
  expect(output).toMatch(/generated files are up to date/);
}, 60_000);
