/**
 * The store contract for the `prospect_response` outbox: the same assertions on memory,
 * PGlite and PostgreSQL (exact bodies, claims under a lease, completion only by the claim
 * holder, the operator's list, the next due time, and transactions).
 */
import { expect, it } from 'vitest';
import type { DeliveryAttemptRecord, DeliveryRecord } from '../../src/store/records.ts';
import type { DeliveryCompletion } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { at, deliveryFixtures, lease, minutes, replyTime } from '../support/delivery-fixtures.ts';

function attemptRow(delivery: DeliveryRecord, attempt: number, overrides: Partial<DeliveryAttemptRecord> = {}) {
  return {
    delivery_id: delivery.id,
    attempt,
    webhook_id: '11111111-0000-4000-8000-000000000001',
    url: 'https://hooks.example.com/a',
    started_at: at(0),
    ok: false,
    status: 500,
    duration_ms: 12,
    error: 'status 500',
    ...overrides,
  };
}

function completion(
  delivery: DeliveryRecord,
  workerId: string,
  attempt: number,
  outcome: DeliveryCompletion['outcome'],
  attempts = [attemptRow(delivery, attempt, { ok: outcome.status === 'delivered' })],
): DeliveryCompletion {
  return {
    delivery_id: delivery.id,
    worker_id: workerId,
    attempt,
    attempts,
    outcome,
    attempts_made: attempt,
    last_error: outcome.status === 'delivered' ? null : 'status 500',
  };
}

describeBackends('store contract: deliveries', (store) => {
  it('keeps a delivery as enqueued, its body byte for byte', async () => {
    const f = await deliveryFixtures(store());
    const delivery = await f.enqueue();
    expect(await store().deliveries.get(delivery.id)).toEqual(delivery);
    expect(await store().deliveries.get(crypto.randomUUID())).toBeNull();
    expect(await store().deliveries.listAttempts(delivery.id)).toEqual([]);
    expect(await store().deliveries.listForCampaign(f.campaign.id, { limit: 10, offset: 0 })).toEqual({
      items: [{ ...delivery, attempts: [] }],
      total: 1,
    });
  });

  it('claims due pending deliveries, earliest first, up to the limit, each with its next attempt', async () => {
    const f = await deliveryFixtures(store());
    const late = await f.enqueue({ next_attempt_at: at(minutes(1)) });
    const early = await f.enqueue({ next_attempt_at: at(-minutes(1)) });
    const onTime = await f.enqueue();
    await f.enqueue({ next_attempt_at: at(minutes(10)) });
    await f.enqueue({ status: 'delivered', next_attempt_at: null, delivered_at: at(0) });
    const first = await store().deliveries.claimDue({ ...lease(minutes(1)), limit: 2, workerId: 'w1' });
    expect(first.map((d) => d.id).sort()).toEqual([early.id, onTime.id].sort());
    expect(first.find((d) => d.id === early.id)).toEqual({
      ...early,
      attempts_made: 1,
      lease_owner: 'w1',
      lease_until: at(minutes(3)),
      next_attempt_at: at(minutes(3)),
    });
    const rest = await store().deliveries.claimDue({ ...lease(minutes(1)), limit: 10, workerId: 'w2' });
    expect(rest.map((d) => d.id)).toEqual([late.id]);
    expect(await store().deliveries.claimDue({ ...lease(minutes(1)), limit: 10, workerId: 'w3' })).toEqual([]);
  });

  it('counts a lease in real time: a schedule clock a day ahead does not end it', async () => {
    const f = await deliveryFixtures(store());
    const delivery = await f.enqueue();
    // A sandbox server claims it; another server's sandbox clock is then advanced by a day.
    const [claimed] = await store().deliveries.claimDue({ ...lease(0), limit: 1, workerId: 'w1' });
    expect(claimed).toMatchObject({ lease_until: at(minutes(2)), next_attempt_at: at(minutes(2)) });
    const dayAhead = (realMs: number) => ({
      now: at(minutes(24 * 60) + realMs),
      realNow: at(realMs),
      leaseUntil: at(realMs + minutes(2)),
      dueAgainAt: at(minutes(24 * 60) + realMs + minutes(2)),
    });
    expect(await store().deliveries.claimDue({ ...dayAhead(minutes(1)), limit: 1, workerId: 'w2' })).toEqual([]);
    // Due again by the schedule, but its attempt is still out: only left out when asked.
    expect(await store().deliveries.nextDueAt()).toBe(at(minutes(2)));
    expect(await store().deliveries.nextDueAt({ liveClaimsAt: at(minutes(1)) })).toBeNull();
    expect(await store().deliveries.nextDueAt({ liveClaimsAt: at(minutes(2)) })).toBe(at(minutes(2)));
    // Once the lease ran out in real time, the other server takes it over.
    const [taken] = await store().deliveries.claimDue({ ...dayAhead(minutes(2)), limit: 1, workerId: 'w2' });
    expect(taken).toMatchObject({
      id: delivery.id,
      attempts_made: 2,
      lease_owner: 'w2',
      lease_until: at(minutes(4)),
      next_attempt_at: at(minutes(24 * 60 + 4)),
    });
  });

  it('lets another worker take a claim over once its lease ran out, with the next attempt number', async () => {
    const f = await deliveryFixtures(store());
    const delivery = await f.enqueue();
    await store().deliveries.claimDue({ ...lease(0), limit: 1, workerId: 'dead' });
    expect(await store().deliveries.claimDue({ ...lease(minutes(1)), limit: 1, workerId: 'w2' })).toEqual([]);
    const [taken] = await store().deliveries.claimDue({ ...lease(minutes(2)), limit: 1, workerId: 'w2' });
    expect(taken).toMatchObject({ id: delivery.id, attempts_made: 2, lease_owner: 'w2' });
    // The dead worker's completion comes too late: the delivery does not move.
    const late = completion(delivery, 'dead', 1, { status: 'pending', at: at(minutes(15)) });
    expect(await store().deliveries.completeAttempts([late])).toEqual([]);
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ attempts_made: 2, lease_owner: 'w2' });
  });

  it('never gives one delivery to two workers claiming at the same time', async () => {
    const f = await deliveryFixtures(store());
    const ids = [];
    for (let i = 0; i < 40; i++) ids.push((await f.enqueue()).id);
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd'].map((workerId) => store().deliveries.claimDue({ ...lease(0), limit: 15, workerId })),
    );
    const claimed = claims.flat().map((d) => d.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual(ids.sort());
    expect(claims.flat().every((d) => d.attempts_made === 1)).toBe(true);
  });

  it('moves a delivery on completion by its claim holder: delivered, retried or failed', async () => {
    const f = await deliveryFixtures(store());
    const [delivered, retried, failed] = [await f.enqueue(), await f.enqueue(), await f.enqueue()];
    await store().deliveries.claimDue({ ...lease(0), limit: 3, workerId: 'w1' });
    const moved = await store().deliveries.completeAttempts([
      completion(delivered, 'w1', 1, { status: 'delivered', at: at(1_000) }),
      completion(retried, 'w1', 1, { status: 'pending', at: at(minutes(15)) }),
      completion(failed, 'w1', 1, { status: 'failed', at: at(2_000) }),
    ]);
    expect(moved.sort()).toEqual([delivered.id, retried.id, failed.id].sort());
    const done = { attempts_made: 1, lease_owner: null, lease_until: null };
    expect(await store().deliveries.get(delivered.id)).toEqual({
      ...delivered,
      ...done,
      status: 'delivered',
      next_attempt_at: null,
      delivered_at: at(1_000),
    });
    expect(await store().deliveries.get(retried.id)).toEqual({
      ...retried,
      ...done,
      next_attempt_at: at(minutes(15)),
      last_error: 'status 500',
    });
    expect(await store().deliveries.get(failed.id)).toEqual({
      ...failed,
      ...done,
      status: 'failed',
      next_attempt_at: null,
      failed_at: at(2_000),
      last_error: 'status 500',
    });
    expect(await store().deliveries.listAttempts(delivered.id)).toEqual([attemptRow(delivered, 1, { ok: true })]);
    // Done deliveries are never claimed again; the retried one is, at its time.
    expect(await store().deliveries.claimDue({ ...lease(minutes(14)), limit: 10, workerId: 'w1' })).toEqual([]);
    const [again] = await store().deliveries.claimDue({ ...lease(minutes(15)), limit: 10, workerId: 'w1' });
    expect(again).toMatchObject({ id: retried.id, attempts_made: 2 });
  });

  it('refuses a completion from a worker or for an attempt that does not hold the claim, keeping the attempt rows', async () => {
    const f = await deliveryFixtures(store());
    const delivery = await f.enqueue();
    await store().deliveries.claimDue({ ...lease(0), limit: 1, workerId: 'w1' });
    const pending = { status: 'pending' as const, at: at(minutes(15)) };
    expect(await store().deliveries.completeAttempts([completion(delivery, 'w2', 1, pending)])).toEqual([]);
    const wrongAttempt = completion(delivery, 'w1', 2, pending, [attemptRow(delivery, 2)]);
    expect(await store().deliveries.completeAttempts([wrongAttempt])).toEqual([]);
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'pending', lease_owner: 'w1' });
    // The requests were made, so they are recorded; once each however often completed.
    expect(await store().deliveries.completeAttempts([completion(delivery, 'w1', 1, pending)])).toEqual([delivery.id]);
    expect(await store().deliveries.completeAttempts([completion(delivery, 'w1', 1, pending)])).toEqual([]);
    expect((await store().deliveries.listAttempts(delivery.id)).map((a) => a.attempt)).toEqual([1, 2]);
  });

  it('marks a delivery delivered on a success even after its claim was taken over', async () => {
    const f = await deliveryFixtures(store());
    const delivery = await f.enqueue();
    await store().deliveries.claimDue({ ...lease(0), limit: 1, workerId: 'slow' });
    await store().deliveries.claimDue({ ...lease(minutes(3)), limit: 1, workerId: 'w2' });
    const success = completion(delivery, 'slow', 1, { status: 'delivered', at: at(minutes(4)) });
    expect(await store().deliveries.completeAttempts([success])).toEqual([delivery.id]);
    expect(await store().deliveries.get(delivery.id)).toMatchObject({
      status: 'delivered',
      attempts_made: 2,
      lease_owner: null,
      delivered_at: at(minutes(4)),
    });
    const second = completion(delivery, 'w2', 2, { status: 'pending', at: at(minutes(18)) });
    expect(await store().deliveries.completeAttempts([second])).toEqual([]);
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'delivered' });
  });

  it('records a not-made attempt by lowering attempts_made', async () => {
    const f = await deliveryFixtures(store());
    const delivery = await f.enqueue();
    await store().deliveries.claimDue({ ...lease(0), limit: 1, workerId: 'w1' });
    const givenUp = { ...completion(delivery, 'w1', 1, { status: 'failed', at: at(0) }, []), attempts_made: 0 };
    expect(await store().deliveries.completeAttempts([givenUp])).toEqual([delivery.id]);
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'failed', attempts_made: 0 });
  });

  it('lists a campaign’s deliveries oldest first with their attempts in order, by page', async () => {
    const f = await deliveryFixtures(store());
    const older = await f.enqueue({ created_at: at(-minutes(5)) });
    const tiedHigh = await f.enqueue({ id: 'ffffffff-0000-4000-8000-000000000000' });
    const tiedLow = await f.enqueue({ id: '00000000-0000-4000-8000-000000000000' });
    const other = await deliveryFixtures(store());
    await other.enqueue();
    await store().deliveries.claimDue({ ...lease(0), limit: 10, workerId: 'w1' });
    const second = attemptRow(older, 1, { webhook_id: '22222222-0000-4000-8000-000000000002', url: 'https://b' });
    const first = attemptRow(older, 1, { webhook_id: '11111111-0000-4000-8000-000000000001' });
    await store().deliveries.completeAttempts([
      completion(older, 'w1', 1, { status: 'pending', at: at(minutes(15)) }, [second, first]),
    ]);
    const page = await store().deliveries.listForCampaign(f.campaign.id, { limit: 2, offset: 1 });
    expect(page.total).toBe(3);
    expect(page.items.map((d) => d.id)).toEqual([tiedLow.id, tiedHigh.id]);
    expect(page.items[0]?.attempts).toEqual([]);
    const all = await store().deliveries.listForCampaign(f.campaign.id, { limit: 10, offset: 0 });
    expect(all.items.map((d) => d.id)).toEqual([older.id, tiedLow.id, tiedHigh.id]);
    expect(all.items[0]?.attempts).toEqual([first, second]);
  });

  it('tells the earliest due time of pending deliveries, leases included', async () => {
    const f = await deliveryFixtures(store());
    expect(await store().deliveries.nextDueAt()).toBeNull();
    await f.enqueue({ status: 'delivered', next_attempt_at: null, delivered_at: at(0), created_at: at(-minutes(60)) });
    await f.enqueue({ next_attempt_at: at(minutes(30)) });
    await f.enqueue({ next_attempt_at: at(minutes(15)) });
    expect(await store().deliveries.nextDueAt()).toBe(at(minutes(15)));
    await store().deliveries.claimDue({ ...lease(minutes(15), minutes(1)), limit: 1, workerId: 'w1' });
    expect(await store().deliveries.nextDueAt()).toBe(at(minutes(16)));
  });

  it('leaves nothing of an enqueue whose transaction failed', async () => {
    const f = await deliveryFixtures(store());
    const record = f.delivery();
    const failed = store().transaction(async (tx) => {
      await tx.deliveries.enqueue(record);
      throw new Error('the reply could not be saved');
    });
    await expect(failed).rejects.toThrow('the reply could not be saved');
    expect(await store().deliveries.get(record.id)).toBeNull();
    expect(await store().deliveries.nextDueAt()).toBeNull();
    await store().transaction((tx) => tx.deliveries.enqueue(record));
    expect(await store().deliveries.nextDueAt()).toBe(replyTime.toISOString());
  });
});
