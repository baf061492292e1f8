/**
 * Where the browser tests find Chromium, the one rule for every one of them (and for
 * `scripts/test-workspaces.ts`): `CHROMIUM_PATH` when set, else Debian's `/usr/bin/chromium`.
 * They drive it with playwright-core, which downloads no browser.
 *
 * Without it a browser test fails (a browser test that skips itself would prove nothing),
 * with one line that says what to install: `chromiumProblem()`.
 */
import { accessSync, constants, statSync } from 'node:fs';

export const defaultChromiumPath = '/usr/bin/chromium';

/** The Chromium executable the browser tests launch. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH || defaultChromiumPath;
}

/** The flags of a headless Chromium that talks to nothing but the test's own server. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One line saying what to install when there is no executable Chromium, else undefined. */
export function chromiumProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const path = chromiumPath(env);
  try {
    accessSync(path, constants.X_OK);
    if (statSync(path).isFile()) return undefined;
  } catch {
    // Missing or not executable: the line below says what to do.
  }
  const where = env.CHROMIUM_PATH ? `${path} (CHROMIUM_PATH)` : path;
  return (
    `Chromium not found at ${where}: the browser tests need it. ` +
    `Install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its executable.`
  );
}

/**
 * Fails a browser test file's set-up when Chromium is missing: an error whose stack is its
 * one line, so the report shows what to install and no trace of this helper.
 */
export function requireChromium(): string {
  const problem = chromiumProblem();
  if (problem === undefined) return chromiumPath();
  const error = new Error(problem);
  error.stack = `Error: ${problem}`;
  throw error;
}
