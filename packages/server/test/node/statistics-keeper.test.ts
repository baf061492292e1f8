/**
 * The keeper's timing (node/statistics-keeper.ts), on a store that only counts its checks:
 * a run of bulk writes gives one check `settleMs` after the last of them, never one check
 * each; a check is never run beside another, and one asked for while another runs follows
 * it; after `stop()` nothing runs. And what a check does: statistics, then the vacuum, told
 * which tables were just analyzed, each logged when it did something, a failure of one not
 * keeping the other from running.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { silentLogger, type LogEntry } from '../../src/http/logger.ts';
import { keepStatistics } from '../../src/node/statistics-keeper.ts';
import type { Store } from '../../src/store/types.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A store whose checks take `checkMs` each (of fake time) and are counted, with how many ran at once. */
function countingStore(checkMs: number) {
  const counts = { checks: 0, overlapping: 0 };
  let running = 0;
  const store = {
    async refreshStatistics() {
      counts.checks++;
      running++;
      if (running > 1) counts.overlapping++;
      await new Promise((resolve) => setTimeout(resolve, checkMs));
      running--;
      return [];
    },
    async vacuumWhereNeeded() {
      return [];
    },
  } as unknown as Store;
  return { store, counts };
}

/** `stop()` waits for a check under way, which ends only as fake time goes on. */
async function stopAdvancing(keeper: { stop(): Promise<void> }) {
  const stopped = keeper.stop();
  await vi.advanceTimersByTimeAsync(1000);
  await stopped;
}

it('checks once, settleMs after the last of a run of bulk writes', async () => {
  const { store, counts } = countingStore(5);
  const keeper = keepStatistics(store, silentLogger, { firstMs: 60_000, intervalMs: 60_000, settleMs: 1000 });
  for (let i = 0; i < 10; i++) {
    keeper.bulkWritten();
    await vi.advanceTimersByTimeAsync(500);
  }
  // 5 s of writes, each within the settle time of the one before: no check yet.
  expect(counts.checks).toBe(0);
  await vi.advanceTimersByTimeAsync(1000);
  expect(counts.checks).toBe(1);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(counts.checks).toBe(1);
  await keeper.stop();
});

it('keeps its interval while bulk writes go on, and runs no two checks at once', async () => {
  const { store, counts } = countingStore(800);
  const keeper = keepStatistics(store, silentLogger, { firstMs: 100, intervalMs: 1000, settleMs: 50 });
  // Writes every 30 ms for 3 s: the settle timer never fires, the interval's checks still run.
  for (let t = 0; t < 3000; t += 30) {
    keeper.bulkWritten();
    await vi.advanceTimersByTimeAsync(30);
  }
  expect(counts.checks).toBeGreaterThanOrEqual(2);
  // The last write's check: asked for while an interval check may run, it runs after it.
  await vi.advanceTimersByTimeAsync(2000);
  expect(counts.overlapping).toBe(0);
  await stopAdvancing(keeper);
});

it('a check asked for while one runs follows it: the one running may have read the catalog before the write', async () => {
  const { store, counts } = countingStore(500);
  const keeper = keepStatistics(store, silentLogger, { firstMs: 0, intervalMs: 60_000, settleMs: 10 });
  await vi.advanceTimersByTimeAsync(1);
  expect(counts.checks).toBe(1);
  keeper.bulkWritten();
  await vi.advanceTimersByTimeAsync(20);
  // Still the first check.
  expect(counts.checks).toBe(1);
  await vi.advanceTimersByTimeAsync(500);
  expect(counts.checks).toBe(2);
  expect(counts.overlapping).toBe(0);
  await stopAdvancing(keeper);
});

it('runs nothing after stop(), whatever was asked for', async () => {
  const { store, counts } = countingStore(5);
  const keeper = keepStatistics(store, silentLogger, { firstMs: 100, intervalMs: 100, settleMs: 100 });
  keeper.bulkWritten();
  await keeper.stop();
  // No timer left behind, and none made after.
  expect(vi.getTimerCount()).toBe(0);
  keeper.bulkWritten();
  expect(vi.getTimerCount()).toBe(0);
  await vi.advanceTimersByTimeAsync(1000);
  expect(counts.checks).toBe(0);
});

it("gathers statistics, then vacuums, leaving the tables just analyzed out of the vacuum's ANALYZE; each is logged", async () => {
  const calls: string[] = [];
  const store = {
    async refreshStatistics() {
      calls.push('statistics');
      return ['leads'];
    },
    async vacuumWhereNeeded(analyzedJustNow: readonly string[] = []) {
      calls.push(`vacuum, not analyzing ${analyzedJustNow.join(', ')}`);
      return ['enrolments', 'leads'];
    },
  } as unknown as Store;
  const lines: LogEntry[] = [];
  const keeper = keepStatistics(store, { log: (entry) => lines.push(entry) }, { firstMs: 0, intervalMs: 60_000 });
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toEqual(['statistics', 'vacuum, not analyzing leads']);
  expect(lines).toEqual([
    {
      level: 'info',
      message: 'planner statistics gathered',
      tables: ['leads'],
      duration_ms: expect.any(Number) as unknown,
    },
    {
      level: 'info',
      message: 'tables vacuumed',
      tables: ['enrolments', 'leads'],
      duration_ms: expect.any(Number) as unknown,
    },
  ]);
  await stopAdvancing(keeper);
});

it('vacuums even when the statistics failed, and says what failed', async () => {
  let vacuums = 0;
  const store = {
    async refreshStatistics() {
      throw new Error('canceling statement due to lock timeout');
    },
    async vacuumWhereNeeded() {
      vacuums++;
      return [];
    },
  } as unknown as Store;
  const lines: LogEntry[] = [];
  const keeper = keepStatistics(store, { log: (entry) => lines.push(entry) }, { firstMs: 0, intervalMs: 60_000 });
  await vi.advanceTimersByTimeAsync(1);
  expect(vacuums).toBe(1);
  expect(lines).toEqual([
    {
      level: 'warn',
      message: 'planner statistics not gathered',
      error: 'Error: canceling statement due to lock timeout',
    },
  ]);
  await stopAdvancing(keeper);
});
