/** The runtimes of runtimes/ are installed and are the versions their names promise. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { requireRuntime, type RuntimeName } from './runtimes.ts';

const expected: Record<RuntimeName, RegExp> = {
  node22: /^v22\./,
  node24: /^v24\./,
  deno: /^deno 2\./,
  bun: /^1\./,
};

describe('test runtimes', () => {
  for (const [name, version] of Object.entries(expected) as Array<[RuntimeName, RegExp]>) {
    it(`${name} runs and reports its version`, () => {
      const output = execFileSync(requireRuntime(name), ['--version'], { encoding: 'utf8' });
      expect(output).toMatch(version);
    });
  }
});
