/**
 * `stop({ abandon })` on every store: a stop waits for the attempts in flight, unless
 * `abandon` aborts first (the server's shutdown grace ran out). Then the requests still
 * waiting for a receiver are aborted through the transport, and the attempt is handed back:
 * the delivery pending and due at once, its attempt number not taken, nothing recorded, so
 * the next worker makes the attempt (section 6 counts 5 attempts; one the server cut short
 * is not one of them). An attempt a receiver accepted before the abort is delivered.
 */
import { expect, it } from 'vitest';
import { createDeliveryWorker, deliveryAttemptHeader } from '../../src/delivery/worker.ts';
import type { AttemptOutcome, DeliveryRequest, WebhookTransport } from '../../src/delivery/types.ts';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { WebhookRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { deliveryFixtures, replyTime } from '../support/delivery-fixtures.ts';
import { answer, fakeTransport, manualClock } from '../support/fake-transport.ts';

/** A receiver that never answers: each request ends only when its signal aborts. */
function silentTransport(): WebhookTransport & { sent: DeliveryRequest[]; inFlight: () => Promise<void> } {
  const sent: DeliveryRequest[] = [];
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  return {
    sent,
    inFlight: () => first,
    send(request, options) {
      sent.push(request);
      arrived();
      return new Promise<AttemptOutcome>((resolve) => {
        const aborted = () => resolve({ ok: false, status: null, duration_ms: 1, error: 'aborted', aborted: true });
        if (options?.signal?.aborted) aborted();
        else options?.signal?.addEventListener('abort', aborted, { once: true });
      });
    },
  };
}

/** The store, except that the campaign lists `webhooks` as enabled (a store keeps one per campaign). */
function withEnabledWebhooks(store: Store, webhooks: WebhookRecord[]): Store {
  return { ...store, webhooks: { ...store.webhooks, listEnabled: async () => webhooks } };
}

describeBackends('delivery worker stop', (store) => {
  it('hands an attempt cut short back: pending, due at once, not counted, nothing recorded', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = silentTransport();
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    worker.start({ pollMs: 60_000 });
    await transport.inFlight();

    const grace = new AbortController();
    const stopped = worker.stop({ abandon: grace.signal });
    grace.abort();
    await stopped;

    expect(await store().deliveries.get(delivery.id)).toMatchObject({
      status: 'pending',
      attempts_made: 0,
      next_attempt_at: replyTime.toISOString(),
      lease_owner: null,
      lease_until: null,
      last_error: expect.stringMatching(/^attempt 1 was cut short when the server stopped/),
    });
    expect(await store().deliveries.listAttempts(delivery.id)).toEqual([]);
    expect(worker.counts).toMatchObject({ attempts: 0, handedBack: 1, retried: 0, failed: 0 });

    // The next start makes the attempt, with the number the cut one had.
    const next = fakeTransport(clock, () => answer.ok());
    expect(await createDeliveryWorker({ store: store(), transport: next, clock }).runDue()).toBe(1);
    expect(next.sent[0]?.headers[deliveryAttemptHeader]).toBe('1');
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'delivered', attempts_made: 1 });
  });

  it('a receiver that accepted before the stop gave up: delivered, not handed back', async () => {
    const f = await deliveryFixtures(store());
    const fast = await f.webhook({ url: 'https://fast.example.com/hook' });
    const slow: WebhookRecord = { ...fast, id: crypto.randomUUID(), url: 'https://slow.example.com/hook' };
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const silent = silentTransport();
    const transport: WebhookTransport = {
      send: (request, options) =>
        request.url === fast.url ? Promise.resolve(answer.ok()) : silent.send(request, options),
    };
    const worker = createDeliveryWorker({ store: withEnabledWebhooks(store(), [fast, slow]), transport, clock });
    worker.start({ pollMs: 60_000 });
    await silent.inFlight();
    await worker.stop({ abandon: AbortSignal.abort() });

    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'delivered', attempts_made: 1 });
    expect(worker.counts).toMatchObject({ attempts: 1, delivered: 1, handedBack: 0 });
  });

  it('the engine passes the grace to the worker, the attempts of its own rounds included', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = silentTransport();
    const deliveries = createDeliveryWorker({ store: store(), transport, clock });
    const engine = createEngine({ store: store(), clock, channel: sandboxChannel, deliveries });
    // A round of the engine (not the worker's loop) is the one waiting on the receiver.
    const round = engine.runDue();
    await transport.inFlight();
    await engine.stop({ abandon: AbortSignal.abort() });
    expect(await round).toMatchObject({ deliveries_attempted: 0 });
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'pending', attempts_made: 0 });
  });
});
