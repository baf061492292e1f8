/**
 * Migration 018 on a database an earlier version used in sandbox mode: a claim it made with
 * the sandbox clock 30 days ahead holds a lease that ends 30 days ahead of real time. After
 * the migration the delivery is claimed again (its worker died), while a real-time lease
 * still running is left as it is.
 */
import { expect, it } from 'vitest';
import { migration018 } from '../../src/store/sql/migrations/018-real-time-leases.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import { describeSqlBackends } from '../support/backends.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';

const day = 86_400_000;
const leaseMs = 135_000;
const iso = (ms: number) => new Date(ms).toISOString();

describeSqlBackends('migration 018: leases written on the sandbox clock', (store) => {
  it('ends them, and leaves real-time leases running', async () => {
    const f = await deliveryFixtures(store());
    const real = Date.now();
    const sandbox = real + 30 * day;
    // Due one after the other, so that each claim below takes its own.
    const orphaned = await f.enqueue({ next_attempt_at: iso(real - 120_000) });
    const running = await f.enqueue({ next_attempt_at: iso(real - 60_000) });
    // What the earlier version wrote: lease and due time both on the sandbox clock.
    const old = { now: iso(sandbox), realNow: iso(sandbox), leaseUntil: iso(sandbox + leaseMs) };
    await store().deliveries.claimDue({ ...old, dueAgainAt: old.leaseUntil, limit: 1, workerId: 'old-worker' });
    // What this version writes for the other: a real-time lease.
    const claimed = await store().deliveries.claimDue({
      now: iso(sandbox),
      realNow: iso(real),
      leaseUntil: iso(real + leaseMs),
      dueAgainAt: iso(sandbox + leaseMs),
      limit: 1,
      workerId: 'live-worker',
    });
    expect(claimed.map((d) => d.id)).toEqual([running.id]);

    await (store() as SqlStore).client.query(migration018.sql);

    const later = Date.now() + 1_000;
    const taken = await store().deliveries.claimDue({
      now: iso(sandbox + 10 * 60_000),
      realNow: iso(later),
      leaseUntil: iso(later + leaseMs),
      dueAgainAt: iso(sandbox + 10 * 60_000 + leaseMs),
      limit: 10,
      workerId: 'new-worker',
    });
    expect(taken.map((d) => ({ id: d.id, attempts_made: d.attempts_made }))).toEqual([
      { id: orphaned.id, attempts_made: 2 },
    ]);
    expect(await store().deliveries.get(running.id)).toMatchObject({
      lease_owner: 'live-worker',
      lease_until: iso(real + leaseMs),
    });
  });
});
