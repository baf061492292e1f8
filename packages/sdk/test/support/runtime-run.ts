/**
 * Runs the runtime checks (test/runtimes/) in a runtime and returns their JSON lines: as a
 * program in a child process (Node, Deno, Bun), bounded in time and killed by its process ID
 * when it overruns, or as a bundle (Chromium, edge-runtime), built with esbuild from the
 * package's `exports` as an application's bundler builds it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { RuntimeCheckLine } from '../runtimes/types.ts';

export const runtimesDir = join(import.meta.dirname, '..', 'runtimes');
/** packages/sdk: where `@ocs/sdk` resolves from, as in a project that depends on it. */
export const packageDir = join(import.meta.dirname, '..', '..');

/** How long a runtime may take for all its checks (they need about 2 s). */
export const childTimeoutMs = 30_000;

export interface ProgramRun {
  lines: RuntimeCheckLine[];
  /** Output lines that are not JSON lines, and stderr: shown when a check is missing. */
  noise: string;
  exitCode: number | null;
  /** Set when the program overran `childTimeoutMs` and was killed. */
  killed: boolean;
}

/** Runs `executable args...` in packages/sdk; kills it (by its PID) after `childTimeoutMs`. */
export function runProgram(executable: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ProgramRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, {
      cwd: packageDir,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    }, childTimeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const { lines, noise } = parseLines(stdout);
      resolve({ lines, noise: [noise, stderr].filter(Boolean).join('\n'), exitCode, killed });
    });
  });
}

/** The JSON lines of a report, and whatever else came. */
export function parseLines(text: string): { lines: RuntimeCheckLine[]; noise: string } {
  const lines: RuntimeCheckLine[] = [];
  const noise: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      lines.push(JSON.parse(line) as RuntimeCheckLine);
    } catch {
      noise.push(line);
    }
  }
  return { lines, noise: noise.join('\n') };
}

export interface ChecksBundle {
  /** A classic script defining `runRuntimeChecks(input)`. */
  code: string;
  /** The files esbuild put in, relative to packages/sdk. */
  inputs: string[];
}

/**
 * The checks as one script, bundled from `@ocs/sdk` and `@ocs/sdk/webhooks` with the export
 * `conditions` of the target (esbuild adds `browser`, `import` and `default` on its own).
 */
export async function bundleChecks(conditions: string[] = []): Promise<ChecksBundle> {
  const result = await build({
    entryPoints: [join(runtimesDir, 'run-in-page.js')],
    absWorkingDir: packageDir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    conditions,
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error('esbuild produced no bundle');
  return { code, inputs: Object.keys(result.metafile.inputs) };
}
