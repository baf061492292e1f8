/**
 * The worker's store calls come in batches (decision 0011): the re-read of each claim before
 * sending is one read for all the attempts ready at that moment, never a read per delivery,
 * and every claim is still read again before its request leaves.
 */
import { expect, it } from 'vitest';
import { createDeliveryWorker } from '../../src/delivery/worker.ts';
import type { DeliveryRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { deliveryFixtures, replyTime } from '../support/delivery-fixtures.ts';
import { fakeTransport, manualClock } from '../support/fake-transport.ts';

/** The store, counting the deliveries' reads: how many calls, and which IDs each read. */
function countingReads(store: Store) {
  const reads: string[][] = [];
  let singleGets = 0;
  const counted: Store = {
    ...store,
    deliveries: {
      ...store.deliveries,
      readClaims: (ids) => {
        reads.push([...ids]);
        return store.deliveries.readClaims(ids);
      },
      get: (id) => {
        singleGets += 1;
        return store.deliveries.get(id);
      },
    },
  };
  return { store: counted, reads, singleGets: () => singleGets };
}

describeBackends('delivery worker batches', (store) => {
  it('reads the claims of many attempts again in a few reads, each claim once, before any request of it leaves', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    const deliveries: DeliveryRecord[] = [];
    for (let i = 0; i < 40; i++) deliveries.push(await f.enqueue());
    const counting = countingReads(store());
    const clock = manualClock(replyTime);
    const readBeforeSent: boolean[] = [];
    const transport = fakeTransport(clock, (request) => {
      const key = (JSON.parse(new TextDecoder().decode(request.body)) as { idempotency_key: string }).idempotency_key;
      const delivery = deliveries.find((d) => d.idempotency_key === key);
      readBeforeSent.push(counting.reads.some((ids) => ids.includes(delivery?.id ?? '')));
      return { ok: true, status: 200, duration_ms: 1, error: null };
    });
    const worker = createDeliveryWorker({ store: counting.store, transport, clock, concurrency: 64, batchSize: 100 });

    expect(await worker.runDue()).toBe(40);
    expect(readBeforeSent).toHaveLength(40);
    expect(readBeforeSent.every(Boolean)).toBe(true);
    const readIds = counting.reads.flat();
    expect([...readIds].sort()).toEqual(deliveries.map((d) => d.id).sort());
    expect(counting.reads.length).toBeLessThanOrEqual(4);
    expect(counting.singleGets()).toBe(0);
  });
});
