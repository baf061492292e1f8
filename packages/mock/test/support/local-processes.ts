/**
 * Real processes for the `ocs` and `ocs-mock proxy` tests: the reference server (the built
 * `ocs-server` bin on PGlite in a temporary directory), the standalone mock (the built
 * `ocs-mock` bin), the built `ocs` bin, and the signed receiver. Each is watched line by
 * line and stopped by its pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const mockRoot = join(import.meta.dirname, '..', '..');
export const ocsBin = join(mockRoot, 'bin', 'ocs.js');
export const ocsMockBin = join(mockRoot, 'bin', 'ocs-mock.cjs');
export const receiverScript = join(import.meta.dirname, 'signed-receiver.mjs');
const serverBin = join(mockRoot, '..', 'server', 'bin', 'ocs-server.js');

export function requireBuilds(): void {
  for (const built of [
    join(mockRoot, 'dist', 'cli', 'ocs.js'),
    join(mockRoot, '..', 'server', 'dist', 'node', 'bin.js'),
  ]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build -w @ocs/server -w @ocs/mock\`.`);
  }
}

const running = new Set<ChildProcess>();

/** A process with its output so far, and a way to wait for a line of it. */
export interface Watched {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout + stderr (rejects if the process ends first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends `signal` (by pid) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** The environment of a child, without what would choose a port, a store, a server or a key for it. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const chosen = new Set(['PORT', 'HOST', 'DATABASE_URL', 'OCS_DATA_DIR', 'OCS_DEBUG', 'OCS_BASE_URL', 'OCS_API_KEY']);
  return { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !chosen.has(name))), ...extra };
}

export function watch(script: string, args: string[], env: Record<string, string> = {}): Watched {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv(env) });
  running.add(child);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
      for (const wake of waiters) wake();
    }),
  );
  const onData = () => {
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    onData();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    onData();
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} in time; stdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        function check() {
          const found = pattern.exec(out + err);
          if (found) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            waiters.delete(check);
            reject(new Error(`exited (${child.exitCode}) before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
          }
        }
        waiters.add(check);
        check();
      });
    },
    stop(signal = 'SIGINT') {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
        process.kill(child.pid, signal);
      return exited;
    },
  };
}

/** Runs a bin to its end. */
export async function run(script: string, args: string[], env: Record<string, string> = {}) {
  const watched = watch(script, args, env);
  const code = await watched.exited;
  return { code, stdout: watched.stdout(), stderr: watched.stderr() };
}

export interface LocalServer {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/** `ocs-server serve --port 0` on PGlite in a temporary directory, with loopback receivers allowed. */
export async function startReferenceServer(extraArgs: string[] = ['--allow-insecure-webhooks']): Promise<LocalServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ocs-local-tools-'));
  const server = watch(serverBin, ['serve', '--port', '0', '--data-dir', join(dataDir, 'pglite'), ...extraArgs]);
  const [, url = ''] = await server.waitFor(/OCS reference server on (\S+\/v1) /, 90_000);
  const [, apiKey = ''] = await server.waitFor(/\b(ocs_[A-Za-z0-9]+)\b/);
  return {
    url,
    apiKey,
    async close() {
      await server.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `ocs-mock --port 0 --json` (in memory, seeded), with loopback receivers allowed unless told otherwise. */
export async function startStandaloneMock(extraArgs: string[] = ['--allow-insecure-webhooks']): Promise<LocalServer> {
  const mock = watch(ocsMockBin, ['--port', '0', '--json', ...extraArgs]);
  const [line = ''] = await mock.waitFor(/^\{.*\}$/m, 60_000);
  const { url, apiKey } = JSON.parse(line) as { url: string; apiKey: string };
  return {
    url,
    apiKey,
    async close() {
      await mock.stop('SIGTERM');
    },
  };
}

/** Kills by pid whatever a test left running (afterAll). */
export function stopAll(): void {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
      process.kill(child.pid, 'SIGKILL');
  }
  running.clear();
}
