/**
 * The reclaimer's own rules (store/sql/erasure-reclaim.ts), on a scripted client: the vacuum
 * runs whatever the check does, one retry at a time, and `close()` waits for the one under
 * way. What PostgreSQL does with it is in erasure-index-entries.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { erasureReclaimer } from '../../src/store/sql/erasure-reclaim.ts';
import type { SqlClient } from '../../src/store/sql/client.ts';

interface Script {
  /** Whether an older transaction holds the versions, at each check in turn (then false). */
  held: boolean[];
  /** Fails the marker's query. */
  markerFails?: boolean;
  /** Fails the first vacuum. */
  vacuumFails?: boolean;
  /** How long a vacuum takes. */
  vacuumMs?: number;
}

function scriptedClient(script: Script) {
  const calls: string[] = [];
  let vacuums = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const client: SqlClient = {
    kind: 'postgres',
    async query<Row>(text: string): Promise<Row[]> {
      if (text.includes('pg_current_snapshot')) {
        calls.push('marker');
        if (script.markerFails) throw new Error('function pg_current_snapshot() does not exist');
        return [{ marker: '1000' }] as Row[];
      }
      if (text.includes('pg_stat_activity')) {
        calls.push('check');
        return [{ held: script.held.shift() ?? false }] as Row[];
      }
      if (text.startsWith('vacuum')) {
        calls.push('vacuum');
        vacuums += 1;
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, script.vacuumMs ?? 0));
          if (script.vacuumFails && vacuums === 1) throw new Error('canceling statement due to statement timeout');
        } finally {
          inFlight -= 1;
        }
        return [];
      }
      throw new Error(`unexpected statement: ${text}`);
    },
    exec: async () => undefined,
    transaction: async () => {
      throw new Error('no transaction here');
    },
    close: async () => undefined,
  };
  return { client, calls, inFlight: () => inFlight, mostInFlight: () => mostInFlight };
}

const times = { firstRetryMs: 5, maxRetryMs: 20 };

describe('erasure reclaimer', () => {
  it('vacuums once when nothing older holds the erased rows', async () => {
    const { client, calls } = scriptedClient({ held: [false] });
    const reclaimer = erasureReclaimer(client, ['leads'], times);
    await reclaimer.reclaim();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(calls).toEqual(['marker', 'check', 'vacuum']);
    await reclaimer.close();
  });

  it('vacuums again once the older transaction has ended, and says so', async () => {
    const { client, calls } = scriptedClient({ held: [true, true, false] });
    const log = vi.fn();
    const reclaimer = erasureReclaimer(client, ['leads'], times);
    await reclaimer.reclaim(log);
    await vi.waitFor(() => expect(calls.filter((call) => call === 'vacuum')).toHaveLength(2));
    expect(calls).toEqual(['marker', 'check', 'vacuum', 'check', 'check', 'vacuum']);
    expect(log.mock.calls.map(([entry]) => entry.message)).toEqual([
      'vacuum after erasure runs again when older transactions end: they may still read the erased rows',
      'vacuum after erasure done once older transactions ended',
    ]);
    await reclaimer.close();
  });

  it('vacuums even when the check cannot run', async () => {
    const { client, calls } = scriptedClient({ held: [], markerFails: true });
    const log = vi.fn();
    const reclaimer = erasureReclaimer(client, ['leads'], times);
    await reclaimer.reclaim(log);
    expect(calls).toEqual(['marker', 'vacuum']);
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ level: 'warn' }));
    await reclaimer.close();
  });

  it('tries a failed vacuum again later', async () => {
    const { client, calls } = scriptedClient({ held: [false, false], vacuumFails: true });
    const reclaimer = erasureReclaimer(client, ['leads'], times);
    await expect(reclaimer.reclaim()).rejects.toThrow('statement timeout');
    await vi.waitFor(() => expect(calls.filter((call) => call === 'vacuum')).toHaveLength(2));
    await reclaimer.close();
  });

  it('runs one retry at a time, and close() waits for the one under way', async () => {
    const { client, calls, inFlight, mostInFlight } = scriptedClient({
      held: [true, true, false, false, false],
      vacuumMs: 30,
    });
    const reclaimer = erasureReclaimer(client, ['leads'], { firstRetryMs: 1, maxRetryMs: 1 });
    // An erasure held at its vacuum; a second one arrives while the first one's retry runs.
    await reclaimer.reclaim();
    await vi.waitFor(() => expect(inFlight()).toBe(1));
    await reclaimer.reclaim();
    await vi.waitFor(() => expect(calls.filter((call) => call === 'vacuum').length).toBeGreaterThanOrEqual(3));
    await reclaimer.close();
    // Nothing under way once close() returned, and nothing ran after it.
    expect(inFlight()).toBe(0);
    const callsAtClose = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(calls).toHaveLength(callsAtClose);
    // The second erasure's own vacuum beside the first one's retry, never two retries.
    expect(mostInFlight()).toBeLessThanOrEqual(2);
  });
});
