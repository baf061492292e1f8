/**
 * Real `ocs-server` processes for the CLI tests: the built bin, as `npx ocs-server` runs it,
 * each one stopped by its pid when a test ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const serverBin = join(import.meta.dirname, '..', '..', 'bin', 'ocs-server.js');

export function requireBuild(): void {
  if (!existsSync(join(import.meta.dirname, '..', '..', 'dist', 'node', 'bin.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/server` before these tests.');
  }
}

const started = new Set<ChildProcess>();

/** The environment of a child: none of the variables that would choose its store or port for it. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const chosen = new Set([
    'DATABASE_URL',
    'OCS_DATA_DIR',
    'PORT',
    'HOST',
    'OCS_DEBUG',
    'OCS_ADMIN_TIMEOUT_MS',
    'OCS_SHUTDOWN_GRACE_MS',
  ]);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !chosen.has(name)));
  return { ...env, ...extra };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end (killed after `timeoutMs`). */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; bin?: string; wrap?: string[]; cwd?: string } = {},
): Promise<Finished> {
  const [command, ...prefix] = [...(options.wrap ?? []), process.execPath];
  const child = spawn(command as string, [...prefix, options.bin ?? serverBin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: childEnv(options.env),
  });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => stop(child, 'SIGKILL'), options.timeoutMs ?? 45_000);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      started.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface Serving {
  child: ChildProcess;
  pid: number;
  /** The API's base URL, `http://127.0.0.1:<port>/v1`, read from what `serve` prints. */
  url: string;
  stderr(): string;
  /** What it wrote to standard output: its log, one JSON object per line. */
  stdout(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `ocs-server serve` and waits until it prints where it listens. `wrap` runs it under
 * another command (`unshare -pf --kill-child`: as pid 1, as in a container).
 */
export function startServe(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; wrap?: string[] } = {},
) {
  const [command, ...prefix] = [...(options.wrap ?? []), process.execPath];
  const child = spawn(command as string, [...prefix, serverBin, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(options.env),
  });
  started.add(child);
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      started.delete(child);
      resolve(code);
    }),
  );
  return new Promise<Serving>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop(child, 'SIGKILL');
      reject(new Error(`serve did not start in time:\n${stderr}`));
    }, options.timeoutMs ?? 45_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /OCS reference server on (\S+\/v1) /.exec(stderr);
      if (match?.[1] && child.pid !== undefined) {
        clearTimeout(timer);
        const pid = child.pid;
        resolve({
          child,
          pid,
          url: match[1],
          stderr: () => stderr,
          stdout: () => stdout,
          stop: () => {
            stop(child, 'SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening:\n${stderr}`));
    });
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, signal);
  } catch {
    // already gone
  }
}

/** Kills, by pid, every process these helpers started that is still running (afterEach). */
export async function stopAll(): Promise<void> {
  const running = [...started];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', () => resolve());
          if (child.pid !== undefined) {
            try {
              process.kill(child.pid, 'SIGCONT');
            } catch {
              // gone
            }
          }
          stop(child, 'SIGKILL');
        }),
    ),
  );
  started.clear();
}

/** The single line a failing CLI printed, checked to be one line with no stack frames. */
export function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line !== '');
  if (lines.length !== 1 || /^\s+at /m.test(stderr)) throw new Error(`expected one line on stderr, got:\n${stderr}`);
  return lines[0] ?? '';
}
