/**
 * The browser tests on a machine without Chromium (issue 15): each file fails at once with
 * the one line that says what to install, and none waits out a hook's timeout (the SDK's
 * used to hang in `afterAll` on a server that was never started, and the line was lost).
 * Each file is run for real, by its package's own vitest, with CHROMIUM_PATH pointing at
 * nothing.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const vitest = join(root, 'node_modules', '.bin', 'vitest');
const missing = join(root, 'no-such-dir', 'chromium');

const browserTests = [
  ['packages/sdk', 'test/webhooks-browser.test.ts'],
  ['packages/sdk', 'test/runtimes.test.ts'],
  ['packages/mock', 'test/browser.test.ts'],
  ['packages/mock', 'test/cors-browser.test.ts'],
  ['packages/mock', 'test/docs-browser.test.ts'],
  ['packages/server', 'test/docs/docs-browser.test.ts'],
] as const;

interface Run {
  status: number | null;
  signal: string | null;
  output: string;
}

/** One test file by its package's vitest, with no Chromium where the tests look for it. */
const runWithoutChromium = (dir: string, file: string) =>
  new Promise<Run>((resolve) => {
    const child = execFile(
      vitest,
      ['run', file, '--reporter=dot'],
      {
        cwd: join(root, dir),
        env: { ...process.env, CHROMIUM_PATH: missing, CI: 'true' },
        // Well under any hook's timeout: a file that waits for one is the failure looked for.
        timeout: 60_000,
      },
      (_error, stdout, stderr) =>
        resolve({
          status: child.exitCode,
          signal: child.signalCode,
          output: stripVTControlCharacters(`${stdout}\n${stderr}`),
        }),
    );
  });

describe('browser tests without Chromium', () => {
  it.concurrent.each(browserTests)(
    '%s %s fails at once with the line saying what to install',
    async (dir, file) => {
      const { status, signal, output } = await runWithoutChromium(dir, file);
      expect(signal, output).toBeNull();
      expect(status, output).toBe(1);
      expect(output).toContain(`Chromium not found at ${missing} (CHROMIUM_PATH): the browser tests need it.`);
      expect(output).not.toMatch(/timed out/i);
    },
    90_000,
  );
});
