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
    expect(await dedupe.once(event(6), handler)).toEqual({ duplicate: false, result: 'handled' });
    expect(await dedupe.once(event(6), handler)).toEqual({ duplicate: true });
    expect(handler).toHaveBeenCalledTimes(1);

    const failing = vi.fn(() => Promise.reject(new Error('database down')));
    await expect(dedupe.once(event(7), failing)).rejects.toThrow('database down');
    expect(await dedupe.once(event(7), handler)).toEqual({ duplicate: false, result: 'handled' });
  });
});

describe('createDeduplicator with a custom async store', () => {
  /** A stand-in for Redis `SET key 1 NX PX ttl`: asynchronous, atomic, with its own clock. */
  function asyncStore() {
    const rows = new Map<string, number>();
    const calls: string[] = [];
    const store: DedupeStore = {
      async add(k, ttlMs) {
        calls.push(`add ${k.slice(-2)} ${ttlMs}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (rows.has(k)) return false;
        rows.set(k, ttlMs);
        return true;
      },
      async delete(k) {
        calls.push(`delete ${k.slice(-2)}`);
        rows.delete(k);
      },
    };
    return { store, calls };
  }

  it('uses the store for claim, release and once, with the TTL given', async () => {
    const { store, calls } = asyncStore();
    const dedupe = createDeduplicator({ store, ttlMs: 72 * 3_600_000 });
    expect(await dedupe.claim(event(1))).toBe(true);
    expect(await dedupe.claim(event(1))).toBe(false);
    await dedupe.release(key(1));
    await expect(dedupe.once(event(2), () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(calls).toEqual(['add 01 259200000', 'add 01 259200000', 'delete 01', 'add 02 259200000', 'delete 02']);
  });
});
