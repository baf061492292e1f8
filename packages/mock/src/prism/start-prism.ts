/**
 * Starts Prism (static examples from the OpenAPI document) as a child process and resolves
 * once it listens; Prism ends with the process that started it. Used by `npm run mock` and by
 * tests that want the examples-only mock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { listenAddress } from '../core/listen-address.ts';
import { optionsOf, shown, wholeNumber } from '../core/option-values.ts';
import { withVersionedPaths } from './versioned-document.ts';

/** Prism's default port: the reference server has 4010, ocs-mock 4011 (docs/decisions/0008-ports-and-names.md). */
export const defaultPrismPort = 4012;

export interface PrismOptions {
  /** Port to listen on; 0 picks a free one. Default 4012 (the reference server has 4010, ocs-mock 4011). */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Milliseconds to wait for Prism to listen before giving up. Default 30000. */
  startTimeoutMs?: number;
  /** Receives Prism's own log lines. Default: discarded. */
  log?: (line: string) => void;
}

export interface PrismMock {
  /** Base URL of the API, ending in `/v1`. */
  url: string;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

function loadDocument() {
  return JSON.parse(readFileSync(require.resolve('@ocs/sdk/openapi.json'), 'utf8'));
}

/** What to install when Prism is missing: the optional peer dependency, in the range @ocs/mock declares. */
export const prismMissing =
  '@ocs/mock/prism runs Prism, an optional peer dependency that is not installed: npm install --save-dev @stoplight/prism-cli@^5.14.2';

function prismBin(): string {
  let manifest: string;
  try {
    manifest = require.resolve('@stoplight/prism-cli/package.json');
  } catch {
    throw new Error(prismMissing);
  }
  return join(dirname(manifest), 'dist', 'index.js');
}

/** What `startPrism` takes. */
const prismOptionNames = ['port', 'host', 'startTimeoutMs', 'log'];

/**
 * The options, checked before Prism is looked for or started, as `startMockServer` checks its
 * own: a misspelt name was ignored, and a port out of range failed only once Prism had started.
 */
function checkPrismOptions(options: unknown): PrismOptions & { port: number; host: string; origin: string } {
  if (options === null) throw new TypeError('@ocs/mock: startPrism takes an options object or nothing, got null.');
  const given = optionsOf(options, 'startPrism', prismOptionNames) as PrismOptions;
  const { port, host, origin } = listenAddress(given.port, given.host, defaultPrismPort);
  wholeNumber(given.startTimeoutMs, 'startTimeoutMs', 1, 'ms');
  if (given.log !== undefined && typeof given.log !== 'function') {
    throw new TypeError(`@ocs/mock: log must be a function taking a line, got ${shown(given.log)}.`);
  }
  return { ...given, port, host, origin };
}

/**
 * Loaded into Prism's process before Prism itself (`node --require`), so that Prism ends when
 * the process that started it ends, however that one ends. SIGINT and SIGTERM handlers close
 * Prism, but a parent that is SIGKILLed, crashes, or exits without closing runs none of them,
 * and Linux offers Node no PR_SET_PDEATHSIG: a Prism from a failed test run was found orphaned
 * hours later, still holding its port. The kernel closes a dead process's end of the IPC
 * channel whatever killed it, so Prism sees `disconnect` then. Prism's own SIGTERM handling is
 * not involved (one that ignored SIGTERM would end all the same), and the temporary directory
 * this file shares with the document goes too, as the dead parent can no longer remove it.
 * Plain CommonJS written at run time: it must run in a bare `node`, from the source and the
 * bundle alike.
 */
const endWithParent = `'use strict';
// Written by @ocs/mock's startPrism: Prism ends when the process that started it does.
const orphaned = () => {
  try {
    require('node:fs').rmSync(__dirname, { recursive: true, force: true });
  } finally {
    process.exit(1);
  }
};
if (!process.channel || !process.connected) orphaned();
process.on('disconnect', orphaned);
// Watching must not keep Prism running: Prism that fails still ends by itself.
process.channel.unref();
`;

export async function startPrism(options: PrismOptions = {}): Promise<PrismMock> {
  const checked = checkPrismOptions(options);
  const bin = prismBin();
  const { host, origin } = checked;
  const port = checked.port === 0 ? await freePort(host) : checked.port;
  const dir = mkdtempSync(join(tmpdir(), 'ocs-prism-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  let child: ChildProcess | undefined;
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(withVersionedPaths(loadDocument(), `${origin}:${port}`)));
    const watcher = join(dir, 'end-with-parent.cjs');
    writeFileSync(watcher, endWithParent);
    // The fourth stdio entry is the IPC channel the watcher waits on; nothing is sent on it.
    child = spawn(process.execPath, ['--require', watcher, bin, 'mock', file, '--host', host, '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, NODE_NO_WARNINGS: '1', FORCE_COLOR: '0' },
    });
    const started = child;
    const listening = await waitUntilListening(started, checked.startTimeoutMs ?? 30_000, checked.log);
    return {
      url: `${listening}/v1`,
      close: () => stop(started).finally(cleanup),
    };
  } catch (error) {
    // Prism failed, or did not listen in time: it must not outlive the failure.
    if (child) await stop(child);
    cleanup();
    throw error;
  }
}

function waitUntilListening(child: ChildProcess, timeoutMs: number, log?: (line: string) => void) {
  return new Promise<string>((resolve, reject) => {
    let output = '';
    let listening = false;
    const timer = setTimeout(
      () => fail(new Error(`Prism did not start within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      if (listening && !log) return; // drained: Prism would block on a full pipe
      const text = chunk.toString();
      for (const line of text.split('\n')) if (line.trim()) log?.(line);
      if (listening) return;
      // Kept only until Prism listens: it logs several lines per request, and a growing text
      // searched again on every chunk cost the process that started Prism a third of a core
      // at a few hundred requests per second, and its memory without end.
      output += text;
      const match = /Prism is listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        listening = true;
        output = '';
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ''));
      }
    };
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => fail(new Error(`Prism exited with code ${code} before listening:\n${output}`)));
    // Node could not start a process at all (no 'exit' follows): a rejection, not a crash.
    child.once('error', fail);
  });
}

/**
 * Prism has no SIGTERM handler of its own, so SIGTERM ends it at once; one that does not end
 * (a preload or a wedged process ignoring it, as the orphan did) is SIGKILLed after this grace.
 */
const stopGraceMs = 2_000;

function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), stopGraceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Prism needs a concrete port up front (it also goes into the document's `servers`). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
