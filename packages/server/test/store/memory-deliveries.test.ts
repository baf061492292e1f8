/**
 * The memory store's outbox keeps every pending delivery but only the newest finished ones,
 * so that the mock's memory stays flat however many replies it delivers.
 */
import { expect, it } from 'vitest';
import { finishedDeliveriesKept } from '../../src/store/memory/deliveries.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import type { DeliveryRecord } from '../../src/store/records.ts';
import { at, deliveryFixtures, lease } from '../support/delivery-fixtures.ts';

it('drops the oldest finished deliveries beyond those kept, never a pending one', async () => {
  const store = createMemoryStore();
  const f = await deliveryFixtures(store);
  const waiting = await f.enqueue({ next_attempt_at: at(3_600_000) });
  const finished: DeliveryRecord[] = [];
  const rounds = finishedDeliveriesKept + 2_000;
  for (let i = 0; i < rounds; i++) finished.push(await f.enqueue());
  const claimed = await store.deliveries.claimDue({ ...lease(0, 60_000), limit: rounds, workerId: 'w' });
  expect(claimed).toHaveLength(rounds);
  const moved = await store.deliveries.completeAttempts(
    claimed.map((d) => ({
      delivery_id: d.id,
      worker_id: 'w',
      attempt: 1,
      attempts: [],
      outcome: { status: 'delivered', at: at(1_000) },
      attempts_made: 1,
      last_error: null,
    })),
  );
  expect(moved).toHaveLength(rounds);
  const listed = await store.deliveries.listForCampaign(f.campaign.id, { limit: 1, offset: 0 });
  expect(listed.total).toBe(finishedDeliveriesKept + 1);
  expect(await store.deliveries.get(finished[0]?.id ?? '')).toBeNull();
  expect(await store.deliveries.get(finished.at(-1)?.id ?? '')).toMatchObject({ status: 'delivered' });
  expect(await store.deliveries.get(waiting.id)).toMatchObject({ status: 'pending' });
});
