/**
 * The runtimes the SDK is tested on besides the Node that runs npm (issue 12, item 6):
 * Node 22 and 24, Deno 2 and Bun 1, installed from the npm registry into
 * `runtimes/node_modules` by the root `postinstall` (see `runtimes/package.json` for why they
 * live outside the workspaces). A test that needs one fails with one line saying what to run
 * when it is missing: a runtime test that skips itself would prove nothing.
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

const installed = join(import.meta.dirname, '..', '..', 'runtimes', 'node_modules');

/** Each runtime's executable, as its npm package lays it out. */
const executables = {
  node22: join(installed, 'node22', 'bin', 'node'),
  node24: join(installed, 'node24', 'bin', 'node'),
  deno: join(installed, 'deno', 'deno'),
  bun: join(installed, 'bun', 'bin', 'bun.exe'),
} as const;

export type RuntimeName = keyof typeof executables;

/** One line saying what to run when the runtime's executable is missing, else undefined. */
export function runtimeProblem(name: RuntimeName): string | undefined {
  try {
    accessSync(executables[name], constants.X_OK);
    return undefined;
  } catch {
    return `${name} not found at ${executables[name]}: run \`npm install\` at the repository's root (its postinstall installs runtimes/).`;
  }
}

/** The runtime's executable; throws an error whose stack is its one line when it is missing. */
export function requireRuntime(name: RuntimeName): string {
  const problem = runtimeProblem(name);
  if (problem === undefined) return executables[name];
  const error = new Error(problem);
  error.stack = `Error: ${problem}`;
  throw error;
}
