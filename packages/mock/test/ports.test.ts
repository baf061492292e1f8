/**
 * The three local servers side by side (docs/decisions/0008-ports-and-names.md): each has a
 * default port of its own, and one started on a port another holds fails at once with one
 * line naming the port and what to do, and exit code 1, never a silent second listener.
 * Real processes: the built `ocs-server` and `ocs-mock` bins, and `npm run mock` (Prism).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const mockBin = join(root, 'bin', 'ocs-mock.cjs');
const serverBin = join(root, '..', 'server', 'bin', 'ocs-server.js');
const tsx = join(root, '..', '..', 'node_modules', '.bin', 'tsx');
const running = new Set<ChildProcess>();
const dataDirs: string[] = [];

beforeAll(() => {
  for (const built of [join(root, 'dist', 'server', 'cli.cjs'), join(root, '..', 'server', 'dist', 'node', 'bin.js')]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build -w @ocs/server -w @ocs/mock\`.`);
  }
});

afterEach(() => {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
      process.kill(child.pid, 'SIGKILL');
  }
  running.clear();
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An environment that chooses no port, host or store for the child. */
function env(): NodeJS.ProcessEnv {
  const chosen = new Set(['PORT', 'HOST', 'DATABASE_URL', 'OCS_DATA_DIR', 'OCS_DEBUG', 'OCS_CORS_ORIGIN']);
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !chosen.has(name)));
}

function start(command: string, args: string[], extraEnv: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...env(), ...extraEnv } });
  running.add(child);
  return child;
}

/** Runs to the end (killed after 60 s): exit code and output. */
async function run(command: string, args: string[], extraEnv: Record<string, string> = {}) {
  const child = start(command, args, extraEnv);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The port a started server prints (`.../v1` on the line matching `pattern`). */
async function printedPort(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<number> {
  const input = child[stream];
  if (!input) throw new Error(`no ${stream} to read`);
  const lines = createInterface({ input });
  for await (const line of lines) {
    const port = pattern.exec(line)?.[1];
    if (port) return Number(port);
  }
  throw new Error('the server exited before printing its address');
}

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ocs-ports-'));
  dataDirs.push(dir);
  return dir;
}

const inUse = (tool: string, port: number, todo: RegExp) =>
  new RegExp(`^${tool}: port ${port} on 127\\.0\\.0\\.1 is in use; choose another with ${todo.source}.*\\n$`);

describe('default ports', () => {
  it('differ: reference server 4010, ocs-mock 4011, Prism 4012', async () => {
    const [server, mock] = await Promise.all([
      run(process.execPath, [serverBin, '--help']),
      run(process.execPath, [mockBin, '--help']),
    ]);
    expect(server.stdout).toMatch(/serve the API \(default port 4010 on 127\.0\.0\.1\)/);
    expect(mock.stdout).toMatch(/--port <n> .*else 4011/);
    const { defaultMockPort } = await import('../src/server/start-mock-server.ts');
    const { defaultPrismPort } = await import('../src/prism/start-prism.ts');
    expect([defaultMockPort, defaultPrismPort]).toEqual([4011, 4012]);
  });
});

describe('two servers on one port', () => {
  it('ocs-mock on the reference server’s port fails in one line, exit 1', async () => {
    const server = start(process.execPath, [serverBin, 'serve', '--port', '0', '--data-dir', freshDataDir()]);
    const port = await printedPort(server, 'stderr', /OCS reference server on http:\/\/127\.0\.0\.1:(\d+)\/v1/);
    const { code, stderr } = await run(process.execPath, [mockBin, '--port', String(port)]);
    expect(code).toBe(1);
    expect(stderr).toMatch(inUse('ocs-mock', port, /--port/));
  }, 90_000);

  it('the reference server on ocs-mock’s port fails in one line before opening its store, exit 1', async () => {
    const mock = start(process.execPath, [mockBin, '--port', '0']);
    const port = await printedPort(mock, 'stdout', /at http:\/\/127\.0\.0\.1:(\d+)\/v1/);
    const dataDir = freshDataDir();
    const { code, stderr } = await run(process.execPath, [
      serverBin,
      'serve',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
    ]);
    expect(code).toBe(1);
    // One line: no demo key printed for a server that did not start.
    expect(stderr).toMatch(inUse('ocs-server', port, /--port/));
  }, 90_000);

  it('Prism (npm run mock) on a port in use fails in one line, exit 1', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, stderr } = await run(tsx, [join(root, 'src', 'prism', 'cli.ts')], { PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(`^npm run mock: port ${port} on 127\\.0\\.0\\.1 is in use; choose another with PORT=<n>\\.\\n$`),
      );
    } finally {
      holder.close();
    }
  }, 90_000);
});

describe('npm run mock (Prism) is checked as ocs-mock is', () => {
  const prismCli = join(root, 'src', 'prism', 'cli.ts');
  // One process (no tsx wrapper), so that its PID is the one to stop.
  const runPrismCli = (args: string[], extraEnv: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', prismCli, ...args], extraEnv);

  it.each<[string, string[], Record<string, string>, RegExp]>([
    // A RangeError's whole stack, exit code 1, before.
    ['PORT that is not a number', [], { PORT: 'abc' }, /PORT must be an integer from 0 to 65535, got 'abc'\./],
    ['PORT out of range', [], { PORT: '70000' }, /PORT must be an integer from 0 to 65535, got '70000'\./],
    ['a negative PORT', [], { PORT: '-1' }, /PORT must be an integer from 0 to 65535, got '-1'\./],
    // Ignored, before: Prism started on the default port.
    ['an unknown flag', ['--bogus', '--port', '0'], {}, /unknown option --bogus\./],
    ['an argument', ['0'], {}, /unexpected argument '0'/],
    ['--port out of range', ['--port', '70000'], {}, /--port must be an integer from 0 to 65535/],
    ['an empty --host', ['--host=', '--port', '0'], {}, /--host needs an address/],
    ['a HOST no URL holds', ['--port', '0'], { HOST: 'bad host' }, /HOST must be an interface's address or name/],
    [
      'a --host longer than DNS allows',
      ['--host', 'a'.repeat(300)],
      {},
      /--host must be an interface's address or name/,
    ],
  ])(
    '%s: one line, exit code 2',
    async (_, args, extraEnv, message) => {
      const { code, stdout, stderr } = await runPrismCli(args, extraEnv);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      const lines = stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(lines[0]).toMatch(/^npm run mock: .* Run npm run mock -- --help for usage\.$/);
    },
    30_000,
  );

  it('--help exits 0 and names the options', async () => {
    const { code, stdout, stderr } = await runPrismCli(['--help']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Usage: npm run mock/);
    expect(stdout).toMatch(/--port <n> .*else 4012/);
  }, 30_000);

  it('--port 0 and --host start Prism on a free port of that interface', async () => {
    const child = start(process.execPath, ['--import', 'tsx', prismCli, '--port', '0', '--host', '127.0.0.1'], {
      PORT: 'abc',
    });
    const port = await printedPort(child, 'stdout', /OCS examples mock \(Prism\) at http:\/\/127\.0\.0\.1:(\d+)\/v1/);
    expect(port).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    expect(await exited).toBe(0);
  }, 90_000);
});
