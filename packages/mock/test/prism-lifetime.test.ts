/**
 * Prism ends with whatever started it, however that ends. `npm run mock` closes Prism on
 * SIGINT and SIGTERM, but a CLI that is SIGKILLed, crashes or is left behind by its own
 * parent runs no handler: a Prism from a failed run was once found orphaned hours later,
 * still holding its port. Real processes, found through /proc (Linux), stopped by PID.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type PrismOptions, startPrism } from '../src/prism/start-prism.ts';

const root = join(import.meta.dirname, '..');
const prismCli = join(root, 'src', 'prism', 'cli.ts');
/** What a test started, by PID, with its command line then (a PID can be reused). */
const started: { pid: number; command: string }[] = [];
const fixtures = mkdtempSync(join(tmpdir(), 'ocs-prism-lifetime-'));
/** Preloaded (NODE_OPTIONS) into the processes of a test: Prism's then ignores SIGTERM, as the orphan did. */
const deafPrism = `--require ${join(fixtures, 'deaf-prism.cjs')}`;
writeFileSync(
  join(fixtures, 'deaf-prism.cjs'),
  `if (process.argv.some((arg) => arg.includes('prism-cli'))) process.on('SIGTERM', () => {});\n`,
);
/** Preloaded likewise: the CLI's then crashes (an uncaught exception) on SIGUSR2. */
const crashingCli = `--require ${join(fixtures, 'crashing-cli.cjs')}`;
writeFileSync(
  join(fixtures, 'crashing-cli.cjs'),
  `if (process.argv.some((arg) => arg.endsWith('cli.ts'))) process.on('SIGUSR2', () => { throw new Error('a crash'); });\n`,
);

function track(pid: number): void {
  started.push({ pid, command: commandLine(pid).join(' ') });
}

afterEach(() => {
  // Whatever a failed test left running: the CLI, then any Prism.
  for (const { pid, command } of started.splice(0).reverse()) {
    if (isRunning(pid) && commandLine(pid).join(' ') === command) process.kill(pid, 'SIGKILL');
  }
});

afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

/** Alive, not a zombie: an orphan's parent here may be a PID 1 that does not reap. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
      children.push(...text.split(' ').filter(Boolean).map(Number));
    } catch {
      // the thread ended meanwhile
    }
  }
  return children;
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The Prism processes `pid` started, with the document each serves. */
function prismsOf(pid: number): { pid: number; document: string }[] {
  return childrenOf(pid).flatMap((child) => {
    const args = commandLine(child);
    const at = args.findIndex((arg) => arg === 'mock');
    return args.some((arg) => arg.includes('prism-cli')) && at >= 0
      ? [{ pid: child, document: args[at + 1] ?? '' }]
      : [];
  });
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (isRunning(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** `npm run mock -- --port 0` as one process (no tsx wrapper), once Prism listens. */
async function startCli(
  extraEnv: Record<string, string> = {},
): Promise<{ cli: ChildProcess; prism: number; dir: string; stderr: () => string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['PORT', 'HOST'].includes(name)));
  const cli = spawn(process.execPath, ['--import', 'tsx', prismCli, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, ...extraEnv },
  });
  if (cli.pid === undefined) throw new Error('the CLI did not start');
  track(cli.pid);
  let stderr = '';
  cli.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for await (const line of createInterface({ input: cli.stdout as NodeJS.ReadableStream })) {
    if (/OCS examples mock \(Prism\) at http:\/\/127\.0\.0\.1:\d+\/v1/.test(line)) break;
  }
  // Keep draining: the CLI must not block on a full pipe.
  cli.stdout?.resume();
  const prisms = prismsOf(cli.pid);
  expect(prisms).toHaveLength(1);
  const [prism] = prisms as [{ pid: number; document: string }];
  track(prism.pid);
  return { cli, prism: prism.pid, dir: dirname(prism.document), stderr: () => stderr };
}

/** The process tree is read from /proc/<pid>/task/<tid>/children. */
const linux = existsSync('/proc/self/task');

describe.skipIf(!linux)('npm run mock', () => {
  it.each<[string, string[], NodeJS.Signals]>([
    ['SIGKILLed: Prism', [], 'SIGKILL'],
    ['SIGKILLed: a Prism that ignores SIGTERM', [deafPrism], 'SIGKILL'],
    ['crashed (an uncaught exception): a Prism that ignores SIGTERM', [deafPrism, crashingCli], 'SIGUSR2'],
  ])(
    '%s ends too, and its temporary directory goes',
    async (_, nodeOptions, signal) => {
      const { cli, prism, dir, stderr } = await startCli(
        nodeOptions.length ? { NODE_OPTIONS: nodeOptions.join(' ') } : {},
      );
      expect(existsSync(dir)).toBe(true);
      const exited = new Promise<number | null>((resolve) => cli.once('close', resolve));
      if (cli.pid !== undefined) process.kill(cli.pid, signal);
      if (signal === 'SIGUSR2') {
        // The CLI's own end on an error, which does not close Prism.
        expect(await exited).toBe(1);
        expect(stderr()).toMatch(/^npm run mock: .*a crash/);
      }
      expect(await gone(prism, 5_000), `Prism ${prism} still runs`).toBe(true);
      // The dead CLI cannot remove the document it wrote: whatever ends Prism does.
      expect(existsSync(dir)).toBe(false);
    },
    60_000,
  );

  it('SIGTERM with a Prism that ignores SIGTERM: Prism is SIGKILLed after a short grace, exit 0', async () => {
    const { cli, prism, stderr } = await startCli({ NODE_OPTIONS: deafPrism });
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      cli.once('close', (code, signal) => resolve([code, signal])),
    );
    const sent = Date.now();
    if (cli.pid !== undefined) process.kill(cli.pid, 'SIGTERM');
    expect({ exit: await exited, stderr: stderr() }).toEqual({ exit: [0, null], stderr: '' });
    // The grace is 2 s (5 s before, which this would catch), plus the CLI's own ending.
    expect(Date.now() - sent).toBeLessThan(4_900);
    expect(isRunning(prism)).toBe(false);
  }, 60_000);
});

describe.skipIf(!linux)('startPrism', () => {
  let holder: Server | undefined;
  afterEach(() => holder?.close());

  /** A port some other server holds: Prism fails to listen on it and exits. */
  async function takenPort(): Promise<number> {
    holder = createServer();
    const server = holder;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it.each<[string, () => Promise<PrismOptions>, RegExp]>([
    ['gives up waiting', async () => ({ port: 0, startTimeoutMs: 1_000 }), /Prism did not start within 1000 ms/],
    ['sees Prism fail', async () => ({ port: await takenPort() }), /Prism exited with code 1 before listening/],
  ])(
    'that %s leaves no Prism behind, even one that ignores SIGTERM',
    async (_, optionsFor, message) => {
      const options = await optionsFor();
      const before = new Set(prismsOf(process.pid).map((prism) => prism.pid));
      const nodeOptions = process.env.NODE_OPTIONS;
      // Prism's environment is this process's, read when Prism is spawned.
      process.env.NODE_OPTIONS = deafPrism;
      let seen: number[] = [];
      const watching = setInterval(() => {
        seen = [...new Set([...seen, ...prismsOf(process.pid).map((prism) => prism.pid)])];
        for (const pid of seen) if (!before.has(pid) && !started.some((one) => one.pid === pid)) track(pid);
      }, 20);
      try {
        await expect(startPrism(options)).rejects.toThrow(message);
      } finally {
        clearInterval(watching);
        if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
        else process.env.NODE_OPTIONS = nodeOptions;
      }
      const spawned = seen.filter((pid) => !before.has(pid));
      expect(spawned).toHaveLength(1);
      for (const pid of spawned) expect(isRunning(pid)).toBe(false);
    },
    60_000,
  );
});
