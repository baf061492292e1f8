/**
 * `npm run fuzz` (test/fuzz/cli.ts) as a real process, as npm runs it (`node --import tsx`):
 * a mistake in its options is one line and exit code 2 (an empty `--seed=` used to run with
 * seed 0); SIGINT or SIGTERM stops it after the request under way with exit code 130 or 143,
 * and on PostgreSQL (with DATABASE_URL) its `test_<id>` schema is dropped, not left behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createPgClient } from '../../src/store/sql/pg-client.ts';

const root = join(import.meta.dirname, '..', '..');
const running = new Set<ChildProcess>();

afterEach(() => {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
      process.kill(child.pid, 'SIGKILL');
  }
  running.clear();
});

interface Fuzzing {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the fuzz CLI, killed after `timeoutMs`; DATABASE_URL only when given in `env`. */
function startFuzz(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Fuzzing {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'fuzz', 'cli.ts'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'), timeoutMs);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

describe('mistakes in the options', () => {
  it.each([
    [['--seed='], /^fuzz: --seed must be an integer from 0 to 4294967295, got ''\./],
    [['--seed', 'abc'], /--seed must be an integer from 0 to 4294967295, got 'abc'/],
    [['--seed', '1.5'], /--seed must be an integer .*, got '1\.5'/],
    [['--seed=-1'], /--seed must be an integer .*, got '-1'/],
    [['--seed', '1e3'], /--seed must be an integer .*, got '1e3'/],
    [['--requests='], /^fuzz: --requests must be a whole number of at least 1, got ''\./],
    [['--requests', '0'], /--requests must be a whole number of at least 1, got '0'/],
    [['--requests=-5'], /--requests must be a whole number of at least 1, got '-5'/],
    [['--requests', '2.5'], /--requests must be a whole number of at least 1, got '2\.5'/],
    [['--requests', '-5'], /--requests needs a value \(write --requests=<value> for one starting with '-'\)/],
    [['--max-seconds='], /--max-seconds must be a whole number of at least 1, got ''/],
    [['--store', 'mysql'], /^fuzz: --store must be memory, pglite or postgres, got 'mysql'\./],
    [['--store='], /--store must be memory, pglite or postgres, got ''/],
    [['--store', 'postgres'], /^fuzz: --store postgres needs DATABASE_URL/],
    [['--bogus'], /^fuzz: unknown option --bogus\./],
    // Which seed replays? The last one was taken, unsaid.
    [['--seed', '1', '--seed', '2'], /^fuzz: --seed must be given once \(it takes one value\)/],
    [['memory'], /^fuzz: unexpected argument 'memory'/],
  ])('%j: one line, exit code 2, nothing run', async (args, message) => {
    const fuzz = startFuzz(args);
    const { code } = await fuzz.exited;
    expect(code).toBe(2);
    expect(fuzz.stdout()).toBe('');
    const lines = fuzz.stderr().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).toMatch(/ Run npm run fuzz -- --help for usage\.$/);
  });
});

it('stops at SIGINT on the memory store: what was sent is reported, exit code 130', async () => {
  const fuzz = startFuzz(['--store', 'memory', '--seed', '7', '--requests', '100000'], {}, 120_000);
  await vi.waitFor(() => expect(fuzz.stdout()).toMatch(/^ {2}1000 sent$/m), { timeout: 100_000, interval: 200 });
  fuzz.child.kill('SIGINT');
  const { code, signal } = await fuzz.exited;
  expect({ code, signal }).toEqual({ code: 130, signal: null });
  expect(fuzz.stdout()).toMatch(/^stopped by SIGINT: \d+ of 100000 sent$/m);
  expect(fuzz.stderr()).toMatch(/^fuzz: SIGINT: stopping after the request under way\.$/m);
}, 120_000);

// Only with a PostgreSQL server (CI sets DATABASE_URL); without one the suite is reported as skipped.
const databaseUrl = process.env.DATABASE_URL ?? '';
describe.runIf(databaseUrl)('on PostgreSQL, a signal drops the schema', () => {
  // Dropped here too should a test fail with its fuzzer killed, so that no failure leaves one.
  const seen = new Set<string>();
  afterAll(async () => {
    const client = await createPgClient({ connectionString: databaseUrl, max: 1 });
    for (const schema of seen) await client.query(`drop schema if exists "${schema}" cascade`);
    await client.close();
  });

  async function schemaExists(schema: string): Promise<boolean> {
    const client = await createPgClient({ connectionString: databaseUrl, max: 1 });
    try {
      const rows = await client.query('select 1 from information_schema.schemata where schema_name = $1', [schema]);
      return rows.length > 0;
    } finally {
      await client.close();
    }
  }

  /** Starts a long run on PostgreSQL and returns it with its schema, once the store is open. */
  async function startOnPostgres(): Promise<{ fuzz: Fuzzing; schema: string }> {
    const fuzz = startFuzz(
      ['--store', 'postgres', '--seed', '7', '--requests', '100000'],
      { DATABASE_URL: databaseUrl },
      150_000,
    );
    let schema = '';
    await vi.waitFor(
      () => {
        const match = /^fuzz: in PostgreSQL schema (test_[0-9a-f]{16}), dropped at the end$/m.exec(fuzz.stdout());
        expect(match).not.toBeNull();
        schema = match?.[1] ?? '';
      },
      { timeout: 60_000, interval: 200 },
    );
    seen.add(schema);
    expect(await schemaExists(schema)).toBe(true);
    return { fuzz, schema };
  }

  it('SIGINT while requests are sent: exit code 130, the schema dropped', async () => {
    const { fuzz, schema } = await startOnPostgres();
    await vi.waitFor(() => expect(fuzz.stdout()).toMatch(/^ {2}1000 sent$/m), { timeout: 120_000, interval: 200 });
    fuzz.child.kill('SIGINT');
    expect(await fuzz.exited).toEqual({ code: 130, signal: null });
    expect(fuzz.stderr()).toContain(
      `fuzz: SIGINT: stopping after the request under way, then dropping PostgreSQL schema ${schema}.`,
    );
    expect(await schemaExists(schema)).toBe(false);
  }, 180_000);

  it('SIGTERM (twice, as npm and a terminal may pass it on) as it starts: exit code 143, the schema dropped', async () => {
    const { fuzz, schema } = await startOnPostgres();
    fuzz.child.kill('SIGTERM');
    fuzz.child.kill('SIGTERM');
    expect(await fuzz.exited).toEqual({ code: 143, signal: null });
    expect(await schemaExists(schema)).toBe(false);
  }, 180_000);
});
