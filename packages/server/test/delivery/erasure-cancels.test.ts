/**
 * Erasure and the outbox (issue 10), on every store backend: a delivery of an erased lead
 * that is pending is cancelled, never claimed again, and not sent even by a worker that had
 * already claimed it; its completion cannot move it back; every body of the lead becomes the
 * erased event; other leads' deliveries are untouched.
 */
import { expect, it } from 'vitest';
import { sign } from '@ocs/sdk/webhooks';
import { erasedEventBody } from '../../src/delivery/payload.ts';
import { createDeliveryWorker } from '../../src/delivery/worker.ts';
import { describeBackends } from '../support/backends.ts';
import { at, deliveryFixtures, lease, minutes, replyTime } from '../support/delivery-fixtures.ts';
import { fakeTransport, manualClock } from '../support/fake-transport.ts';

const eventWithLead = (key: string) =>
  JSON.stringify({
    event: 'prospect_response',
    idempotency_key: key,
    lead: { email: 'maya@acme.example', first_name: 'Maya', custom_fields: { city: 'Lyon' } },
    ai_response: { sdr_brief: 'Maya wants a call', responder_message: 'Hi Maya', sentiment: 'positive' },
    campaign: 'Q4',
    prospect_message: 'Call me, Maya',
  });

describeBackends('erasure in the delivery outbox', (store) => {
  it('cancels pending deliveries, erases every body of the lead, and leaves others alone', async () => {
    const f = await deliveryFixtures(store());
    const key = 'a'.repeat(64);
    const pending = await f.enqueue({ idempotency_key: key, body: eventWithLead(key) });
    const delivered = await f.enqueue({
      body: eventWithLead('b'.repeat(64)),
      status: 'delivered',
      next_attempt_at: null,
      delivered_at: replyTime.toISOString(),
    });
    // Another lead's delivery.
    const other = await (await deliveryFixtures(store())).enqueue({ body: eventWithLead('c'.repeat(64)) });
    const erasedAt = at(minutes(1));
    await store().transaction((tx) =>
      tx.deliveries.eraseLead(pending.organization_id, pending.lead_id, { at: erasedAt, anonymise: erasedEventBody }),
    );

    const cancelled = await store().deliveries.get(pending.id);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelled_at: erasedAt,
      next_attempt_at: null,
      lease_owner: null,
      lease_until: null,
      idempotency_key: key,
    });
    expect(cancelled?.last_error).toMatch(/^cancelled: the lead was deleted/);
    for (const id of [pending.id, delivered.id]) {
      const body = JSON.parse((await store().deliveries.get(id))?.body ?? '');
      expect(body).toMatchObject({
        lead: { email: null, first_name: null, custom_fields: {} },
        ai_response: { sdr_brief: null, responder_message: null, sentiment: 'positive' },
        campaign: 'Q4',
        prospect_message: null,
      });
      expect(JSON.stringify(body)).not.toMatch(/Maya|Lyon|maya@/);
    }
    expect(await store().deliveries.get(delivered.id)).toMatchObject({ status: 'delivered', cancelled_at: null });
    expect(await store().deliveries.get(other.id)).toMatchObject({ status: 'pending', body: other.body });
    // Never claimed again: only the other lead's delivery is due.
    const claimed = await store().deliveries.claimDue({ ...lease(minutes(60)), limit: 10, workerId: 'w' });
    expect(claimed.map((d) => d.id)).toEqual([other.id]);
    expect(await store().deliveries.nextDueAt()).toBe(at(minutes(62)));
  });

  it('is not sent by a worker that claimed it before the erasure, and its completion is refused', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    const delivery = await f.enqueue({ body: eventWithLead('d'.repeat(64)) });
    const clock = manualClock(replyTime);
    const transport = fakeTransport(clock);
    // The erasure commits while the worker holds the claim (between its claim and its send:
    // here, while it signs the body).
    const worker = createDeliveryWorker({
      store: store(),
      transport,
      clock,
      signer: async (body, secret) => {
        await store().transaction((tx) =>
          tx.deliveries.eraseLead(delivery.organization_id, delivery.lead_id, {
            at: replyTime.toISOString(),
            anonymise: erasedEventBody,
          }),
        );
        return sign(body, secret);
      },
    });
    expect(await worker.runDue()).toBe(0);
    expect(transport.sent).toHaveLength(0);
    expect(worker.counts).toMatchObject({ requests: 0, attempts: 0, claimsLost: 1 });
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'cancelled', next_attempt_at: null });
    // A completion of the lost claim (a worker that sent it anyway) cannot move it back.
    const moved = await store().deliveries.completeAttempts([
      {
        delivery_id: delivery.id,
        worker_id: worker.workerId,
        attempt: 1,
        attempts: [],
        outcome: { status: 'delivered', at: replyTime.toISOString() },
        attempts_made: 1,
        last_error: null,
      },
    ]);
    expect(moved).toEqual([]);
    expect((await store().deliveries.get(delivery.id))?.status).toBe('cancelled');
    clock.set(at(minutes(60 * 24)));
    expect(await worker.runDue()).toBe(0);
    expect(transport.sent).toHaveLength(0);
  });
});
