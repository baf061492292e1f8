/** The dedupe helper: in-memory store with TTL and a size bound, and a pluggable async store. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as nodeEntry from '../src/webhooks/node.ts';
import * as webEntry from '../src/webhooks/web.ts';
import { createDeduplicator, createMemoryStore, type DedupeStore } from '../src/webhooks/node.ts';

const key = (n: number) => n.toString(16).padStart(64, '0');
const event = (n: number) => ({ idempotency_key: key(n) });

afterEach(() => vi.useRealTimers());

describe('createDeduplicator (in-memory default)', () => {
  it('is exported by both entries', () => {
    expect(webEntry.createDeduplicator).toBe(nodeEntry.createDeduplicator);
  });

  it('claims a key once, by event or by key', async () => {
    const dedupe = createDeduplicator();
    expect(await dedupe.claim(event(1))).toBe(true);
    expect(await dedupe.claim(event(1))).toBe(false);
    expect(await dedupe.claim(key(1))).toBe(false);
    expect(await dedupe.claim(key(2))).toBe(true);
  });

  it('lets exactly one of concurrent deliveries through', async () => {
    const dedupe = createDeduplicator();
    const results = await Promise.all(Array.from({ length: 10 }, () => dedupe.claim(event(3))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('forgets a key after the TTL (48 hours by default)', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-04T09:00:00Z') });
    const dedupe = createDeduplicator();
    expect(await dedupe.claim(event(1))).toBe(true);
    vi.advanceTimersByTime(48 * 3_600_000 - 1);
    expect(await dedupe.claim(event(1))).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await dedupe.claim(event(1))).toBe(true);

    const short = createDeduplicator({ ttlMs: 1_000 });
    expect(await short.claim(event(2))).toBe(true);
    vi.advanceTimersByTime(999);
    expect(await short.claim(event(2))).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await short.claim(event(2))).toBe(true);
  });

  it('keeps memory bounded: expired keys are dropped, and the oldest beyond maxEntries', async () => {
    vi.useFakeTimers({ now: 0 });
    const dedupe = createDeduplicator({ store: createMemoryStore({ maxEntries: 3 }), ttlMs: 10_000 });
    for (const n of [1, 2, 3, 4]) expect(await dedupe.claim(event(n))).toBe(true);
    // 1 was evicted as the oldest; 2, 3 and 4 are remembered.
    expect(await dedupe.claim(event(1))).toBe(true);
    for (const n of [3, 4]) expect(await dedupe.claim(event(n))).toBe(false);
  });

  it('release lets the next delivery through', async () => {
    const dedupe = createDeduplicator();
    await dedupe.claim(event(5));
    await dedupe.release(event(5));
    expect(await dedupe.claim(event(5))).toBe(true);
  });

  it('once runs the handler once, and again after it failed', async () => {
    const dedupe = createDeduplicator();
    const handler = vi.fn(async () => 'handled');
    expect(await dedupe.once(event(6), handler)).toEqual({ status: 'handled', result: 'handled' });
    expect(await dedupe.once(event(6), handler)).toEqual({ status: 'duplicate' });
    expect(handler).toHaveBeenCalledTimes(1);

    const failing = vi.fn(() => Promise.reject(new Error('database down')));
    await expect(dedupe.once(event(7), failing)).rejects.toThrow('database down');
    expect(await dedupe.once(event(7), handler)).toEqual({ status: 'handled', result: 'handled' });
  });

  it('once: a copy arriving while the first is processed is in_flight, neither run nor counted as done', async () => {
    const dedupe = createDeduplicator();
    let finish!: (value: string) => void;
    const first = dedupe.once(event(8), () => new Promise<string>((resolve) => (finish = resolve)));
    const second = vi.fn(() => 'second');
    expect(await dedupe.once(event(8), second)).toEqual({ status: 'in_flight' });
    finish('first');
    expect(await first).toEqual({ status: 'handled', result: 'first' });
    expect(await dedupe.once(event(8), second)).toEqual({ status: 'duplicate' });
    expect(second).not.toHaveBeenCalled();
  });

  it('once: when the first fails, the copy refused as in_flight is processed on its retry', async () => {
    const dedupe = createDeduplicator();
    let fail!: (error: Error) => void;
    const first = dedupe.once(event(9), () => new Promise((_resolve, reject) => (fail = reject)));
    expect(await dedupe.once(event(9), () => 'copy')).toEqual({ status: 'in_flight' });
    fail(new Error('crm down'));
    await expect(first).rejects.toThrow('crm down');
    expect(await dedupe.once(event(9), () => 'retry')).toEqual({ status: 'handled', result: 'retry' });
  });

  it('once: a hold expires after the lease (a process that died holding it)', async () => {
    vi.useFakeTimers({ now: 0 });
    const store = createMemoryStore();
    const dedupe = createDeduplicator({ store, leaseMs: 60_000 });
    // A delivery that never settles, as if its process had died.
    void dedupe.once(event(10), () => new Promise(() => {}));
    await Promise.resolve();
    expect(await dedupe.once(event(10), () => 'copy')).toEqual({ status: 'in_flight' });
    vi.advanceTimersByTime(59_999);
    expect(await dedupe.once(event(10), () => 'copy')).toEqual({ status: 'in_flight' });
    vi.advanceTimersByTime(1);
    expect(await dedupe.once(event(10), () => 'retry')).toEqual({ status: 'handled', result: 'retry' });
    // Once done, the key is kept for the TTL (48 hours), not the lease.
    vi.advanceTimersByTime(47 * 3_600_000);
    expect(await dedupe.once(event(10), () => 'again')).toEqual({ status: 'duplicate' });
  });
});

describe('createDeduplicator with a custom async store', () => {
  /** A stand-in for Redis (`SET NX PX`, `GET`, `SET PX`, `DEL`): asynchronous, with its own state. */
  function asyncStore() {
    const rows = new Map<string, 'held' | 'done'>();
    const calls: string[] = [];
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const store: DedupeStore = {
      async claim(k, leaseMs) {
        calls.push(`claim ${k.slice(-2)} ${leaseMs}`);
        await tick();
        const row = rows.get(k);
        if (row) return row === 'done' ? 'done' : 'in_flight';
        rows.set(k, 'held');
        return 'acquired';
      },
      async complete(k, ttlMs) {
        calls.push(`complete ${k.slice(-2)} ${ttlMs}`);
        await tick();
        rows.set(k, 'done');
      },
      async release(k) {
        calls.push(`release ${k.slice(-2)}`);
        rows.delete(k);
      },
    };
    return { store, calls };
  }

  it('uses the store for claim, release and once, with the TTL and lease given', async () => {
    const { store, calls } = asyncStore();
    const dedupe = createDeduplicator({ store, ttlMs: 72 * 3_600_000, leaseMs: 90_000 });
    expect(await dedupe.claim(event(1))).toBe(true);
    expect(await dedupe.claim(event(1))).toBe(false);
    await dedupe.release(key(1));
    await expect(dedupe.once(event(2), () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await dedupe.once(event(3), () => 3)).toEqual({ status: 'handled', result: 3 });
    expect(calls).toEqual([
      'claim 01 259200000',
      'complete 01 259200000',
      'claim 01 259200000',
      'release 01',
      'claim 02 90000',
      'release 02',
      'claim 03 90000',
      'complete 03 259200000',
    ]);
  });

  it('runs the handler once for concurrent deliveries, the others in_flight or duplicate', async () => {
    const { store } = asyncStore();
    const dedupe = createDeduplicator({ store });
    const handler = vi.fn(async () => 'once');
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => dedupe.once(event(4), handler)));
    expect(handler).toHaveBeenCalledTimes(1);
    // The four that found the key held are refused (retried later), not counted as done.
    expect(outcomes.map((o) => o.status).sort()).toEqual([
      'handled',
      'in_flight',
      'in_flight',
      'in_flight',
      'in_flight',
    ]);
  });
});
