/**
 * `serve`'s purge of expired stored answers (node/expired-answers.ts), on a store that only
 * counts its calls: first after `firstMs`, then every `intervalMs`, with the wall clock's time;
 * a failure is logged and the next purge runs; after `stop()` nothing runs.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { LogEntry } from '../../src/http/logger.ts';
import { purgeExpiredAnswers } from '../../src/node/expired-answers.ts';
import { serveLogging } from '../support/serve-logging.ts';
import { createOrganization } from '../../src/seed/organizations.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import type { Store } from '../../src/store/types.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it('purges after the first delay, then at every interval, and logs what it deleted or why not', async () => {
  const calls: string[] = [];
  let fail = false;
  const store = {
    idempotency: {
      async purgeExpired(now: string) {
        calls.push(now);
        if (fail) throw new Error('database gone');
        return calls.length === 1 ? 2 : 0;
      },
    },
  } as unknown as Store;
  const lines: LogEntry[] = [];
  const clock = () => new Date(Date.UTC(2026, 10, 27, 12, 0, calls.length));
  const purge = purgeExpiredAnswers(
    store,
    { log: (entry) => lines.push(entry) },
    { firstMs: 5000, intervalMs: 60_000 },
    clock,
  );
  await vi.advanceTimersByTimeAsync(4999);
  expect(calls).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toEqual(['2026-11-27T12:00:00.000Z']);
  expect(lines).toEqual([{ level: 'info', message: 'expired stored answers deleted', answers: 2 }]);
  await vi.advanceTimersByTimeAsync(60_000);
  expect(calls).toHaveLength(2);
  // Nothing deleted: nothing said.
  expect(lines).toHaveLength(1);
  fail = true;
  await vi.advanceTimersByTimeAsync(60_000);
  expect(lines[1]).toEqual({
    level: 'warn',
    message: 'expired stored answers not deleted',
    error: 'Error: database gone',
  });
  fail = false;
  await vi.advanceTimersByTimeAsync(60_000);
  expect(calls).toHaveLength(4);
  await purge.stop();
  await vi.advanceTimersByTimeAsync(600_000);
  expect(calls).toHaveLength(4);
});

it('runs in serve: an answer stored a day ago is gone soon after the server listens', async () => {
  vi.useRealTimers();
  const store = createMemoryStore();
  const organization = await createOrganization(store, {
    name: 'Purged',
    members: [{ id: crypto.randomUUID(), email: 'o@example.com', name: 'Owner', role: 'owner' }],
  });
  const dayAgo = (ms: number) => new Date(Date.now() - 86_400_000 + ms).toISOString();
  const record = (key: string, expires_at: string) => ({
    organization_id: organization.id,
    key,
    fingerprint: 'f',
    state: 'in_progress' as const,
    locked_until: expires_at,
    response_status: null,
    response_body: null,
    created_at: dayAgo(0),
    expires_at,
  });
  await store.idempotency.claim(record('old', dayAgo(1000)), dayAgo(0));
  await store.idempotency.claim(record('fresh', new Date(Date.now() + 86_400_000).toISOString()), dayAgo(0));
  const { running: server, lines } = await serveLogging({ store, expiredAnswers: { firstMs: 0, intervalMs: 60_000 } });
  try {
    for (
      let waited = 0;
      waited < 5000 && !lines.some((l) => l.message === 'expired stored answers deleted');
      waited += 20
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lines).toContainEqual({ level: 'info', message: 'expired stored answers deleted', answers: 1 });
    expect(await store.idempotency.purgeExpired(new Date().toISOString())).toBe(0);
    const fresh = await store.idempotency.claim(record('fresh', new Date().toISOString()), new Date().toISOString());
    expect(fresh).toMatchObject({ outcome: 'existing' });
  } finally {
    await server.close();
  }
});
