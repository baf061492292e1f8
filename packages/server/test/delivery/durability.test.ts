/**
 * The outbox across processes (section 6, "durable"): real worker processes
 * (`fixtures/drain-outbox.ts`, the Node transport) deliver to a loopback receiver here.
 * - A process SIGKILLed mid-run, then a new one started: every delivery ends delivered and
 *   every key is received, on PGlite (a data directory) and on PostgreSQL.
 * - Two processes draining one PostgreSQL at once: no attempt is sent twice.
 * PostgreSQL runs when DATABASE_URL is set, as in `support/backends.ts`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryAttemptHeader } from '../../src/delivery/worker.ts';
import { openSqlStore, type SqlStore, type SqlStoreOptions } from '../../src/store/sql/index.ts';
import type { DeliveryCounts } from '../../src/delivery/worker.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';
import { type LoopbackReceiver, startLoopbackReceiver } from '../support/loopback-receiver.ts';
import type { DrainConfig } from './fixtures/drain-outbox.ts';

const script = fileURLToPath(new URL('./fixtures/drain-outbox.ts', import.meta.url));
const serverRoot = fileURLToPath(new URL('../..', import.meta.url));
/** No child outlives this, whatever happens to the test. */
const childLimitMs = 60_000;

interface Drainer {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function startDrainer(config: DrainConfig): Drainer {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: serverRoot,
    env: { ...process.env, DRAIN_CONFIG: JSON.stringify(config) },
  });
  let stdout = '';
  let stderr = '';
  const limit = setTimeout(() => child.kill('SIGKILL'), childLimitMs);
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('ready\n')) resolve();
    });
    child.once('exit', () => reject(new Error(`drainer exited before it was ready: ${stderr}`)));
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      child.once('exit', (code, signal) => {
        clearTimeout(limit);
        resolve({ code, signal, stdout, stderr });
      });
    },
  );
  ready.catch(() => undefined);
  return { child, ready, exited };
}

/** What the receiver got: for each idempotency key, the attempt numbers it was sent with. */
function receipts(receiver: LoopbackReceiver): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const request of receiver.requests) {
    const key = (JSON.parse(request.body.toString('utf8')) as { idempotency_key: string }).idempotency_key;
    const attempt = String(request.headers[deliveryAttemptHeader.toLowerCase()]);
    byKey.set(key, [...(byKey.get(key) ?? []), attempt]);
  }
  return byKey;
}

const answerAfter = (delayMs: number) => (_request: unknown, response: ServerResponse) => {
  setTimeout(() => response.writeHead(200).end(), delayMs);
};

interface ProcessBackend {
  name: string;
  storeOptions: SqlStoreOptions;
  cleanup(): Promise<void>;
}

function processBackends(): Array<{ name: string; make: () => ProcessBackend }> {
  const pglite = (): ProcessBackend => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ocs-outbox-'));
    return {
      name: 'pglite',
      storeOptions: { dataDir },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  };
  const databaseUrl = process.env.DATABASE_URL;
  const withPglite = { name: 'pglite', make: pglite };
  if (!databaseUrl) return [withPglite];
  const postgres = (): ProcessBackend => {
    const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
    return {
      name: 'postgres',
      storeOptions: { databaseUrl, schema },
      async cleanup() {
        const admin = await openSqlStore({ databaseUrl, skipMigrations: true });
        await admin.client.query(`drop schema if exists "${schema}" cascade`);
        await admin.close();
      },
    };
  };
  return [withPglite, { name: 'postgres', make: postgres }];
}

/** Seeds `count` pending deliveries to the receiver on a fresh store, and closes it (PGlite has one process at a time). */
async function seedOutbox(options: SqlStoreOptions, receiver: LoopbackReceiver, count: number): Promise<string[]> {
  const store = await openSqlStore(options);
  try {
    const f = await deliveryFixtures(store);
    await f.webhook({ url: `${receiver.origin}/hook` });
    const keys: string[] = [];
    await store.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        // Created now: the workers run on the system clock, and the 48-hour window counts.
        const now = new Date().toISOString();
        const record = f.delivery({ created_at: now, next_attempt_at: now });
        await tx.deliveries.enqueue(record);
        keys.push(record.idempotency_key);
      }
    });
    return keys;
  } finally {
    await store.close();
  }
}

async function readOutbox(options: SqlStoreOptions): Promise<Array<{ key: string; status: string }>> {
  const store: SqlStore = await openSqlStore(options);
  try {
    return await store.client.query<{ key: string; status: string }>(
      'select idempotency_key as key, status from deliveries',
    );
  } finally {
    await store.close();
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const { name, make } of processBackends()) {
  describe(`outbox across processes [${name}]`, () => {
    it('delivers every pending event after a process is killed mid-run and another started', async () => {
      const backend = make();
      cleanups.push(() => backend.cleanup());
      const receiver = await startLoopbackReceiver(answerAfter(20));
      cleanups.push(() => receiver.close());
      const count = 150;
      const keys = await seedOutbox(backend.storeOptions, receiver, count);
      const drainer = (workerId: string): DrainConfig => ({
        ...backend.storeOptions,
        workerId,
        leaseMs: 1_000,
        concurrency: 4,
      });

      const first = startDrainer(drainer('first'));
      cleanups.push(async () => void first.child.kill('SIGKILL'));
      await vi.waitFor(() => expect(receiver.requests.length).toBeGreaterThanOrEqual(30), {
        timeout: 30_000,
        interval: 5,
      });
      first.child.kill('SIGKILL');
      const killed = await first.exited;
      expect(killed.signal).toBe('SIGKILL');
      // Killed mid-run: work was left for the next process.
      expect(receipts(receiver).size).toBeLessThan(count);

      const second = startDrainer(drainer('second'));
      cleanups.push(async () => void second.child.kill('SIGKILL'));
      const finished = await second.exited;
      expect(finished.code, finished.stderr).toBe(0);

      const received = receipts(receiver);
      expect([...received.keys()].sort()).toEqual([...keys].sort());
      for (const attempts of received.values()) expect(new Set(attempts).size).toBe(attempts.length);
      const outbox = await readOutbox(backend.storeOptions);
      expect(outbox).toHaveLength(count);
      expect(outbox.filter((d) => d.status !== 'delivered')).toEqual([]);
    }, 90_000);
  });
}

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  describe('outbox across processes [postgres, two workers]', () => {
    it('never sends the same attempt twice when two processes drain one PostgreSQL', async () => {
      const backend = processBackends()[1]?.make();
      if (!backend) throw new Error('no PostgreSQL backend');
      cleanups.push(() => backend.cleanup());
      const receiver = await startLoopbackReceiver(answerAfter(5));
      cleanups.push(() => receiver.close());
      const count = 300;
      const keys = await seedOutbox(backend.storeOptions, receiver, count);
      const drainers = ['left', 'right'].map((workerId) =>
        startDrainer({ ...backend.storeOptions, workerId, leaseMs: 60_000, concurrency: 8, waitForGo: true }),
      );
      for (const d of drainers) cleanups.push(async () => void d.child.kill('SIGKILL'));
      await Promise.all(drainers.map((d) => d.ready));
      for (const d of drainers) d.child.stdin.write('go\n');
      const results = await Promise.all(drainers.map((d) => d.exited));
      const counts = results.map((r) => {
        expect(r.code, r.stderr).toBe(0);
        return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as DeliveryCounts;
      });

      const received = receipts(receiver);
      expect(receiver.requests).toHaveLength(count);
      expect([...received.keys()].sort()).toEqual([...keys].sort());
      for (const attempts of received.values()) expect(attempts).toEqual(['1']);
      expect(counts.map((c) => c.attempts).reduce((a, b) => a + b, 0)).toBe(count);
      // Both processes took part: the test did exercise two claimers at once.
      expect(counts.every((c) => c.attempts > 0)).toBe(true);
      const outbox = await readOutbox(backend.storeOptions);
      expect(outbox.filter((d) => d.status !== 'delivered')).toEqual([]);
    }, 90_000);
  });
}
