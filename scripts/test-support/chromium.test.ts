import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumPath, chromiumProblem, defaultChromiumPath } from './chromium.ts';

const dir = mkdtempSync(join(tmpdir(), 'ocs-chromium-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chromiumPath', () => {
  it('is CHROMIUM_PATH when set, else Debian’s /usr/bin/chromium', () => {
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/chrome/chrome' })).toBe('/opt/chrome/chrome');
    expect(chromiumPath({})).toBe(defaultChromiumPath);
    expect(chromiumPath({ CHROMIUM_PATH: '' })).toBe(defaultChromiumPath);
  });
});

describe('chromiumProblem', () => {
  it('is one line naming the path and what to install when there is no such file', () => {
    const problem = chromiumProblem({ CHROMIUM_PATH: join(dir, 'missing') });
    expect(problem).toBe(
      `Chromium not found at ${join(dir, 'missing')} (CHROMIUM_PATH): the browser tests need it. ` +
        'Install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its executable.',
    );
    expect(problem).not.toContain('\n');
  });

  it('refuses a file that is not executable, and a directory', () => {
    const plain = join(dir, 'plain');
    writeFileSync(plain, '', { mode: 0o644 });
    expect(chromiumProblem({ CHROMIUM_PATH: plain })).toMatch(/^Chromium not found at /);
    expect(chromiumProblem({ CHROMIUM_PATH: dir })).toMatch(/^Chromium not found at /);
  });

  it('is undefined for an executable file', () => {
    const executable = join(dir, 'chromium');
    writeFileSync(executable, '#!/bin/sh\n', { mode: 0o755 });
    expect(chromiumProblem({ CHROMIUM_PATH: executable })).toBeUndefined();
  });
});
