/**
 * The delivery worker on every store backend, with a fake transport and a clock moved by
 * hand: what is sent (bytes, headers, signature checked with an independent HMAC), to which
 * webhooks, and when (the retry schedule on the clock).
 */
import { createHmac } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { createDeliveryWorker, deliveryAttemptHeader } from '../../src/delivery/worker.ts';
import type { WebhookRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { at, deliveryFixtures, minutes, replyTime } from '../support/delivery-fixtures.ts';
import { answer, fakeTransport, manualClock, type SentRequest } from '../support/fake-transport.ts';

const hmacHex = (secret: string, body: Uint8Array) => createHmac('sha256', secret).update(body).digest('hex');
const text = (request: SentRequest) => new TextDecoder().decode(request.body);

/** The store, except that the campaign lists `webhooks` as enabled: a store keeps one enabled webhook per campaign, the worker must handle any number. */
function withEnabledWebhooks(store: Store, webhooks: WebhookRecord[]): Store {
  return { ...store, webhooks: { ...store.webhooks, listEnabled: async () => webhooks } };
}

describeBackends('delivery worker', (store) => {
  it('sends the exact bytes at once, signed over them, and records the attempt', async () => {
    const f = await deliveryFixtures(store());
    const webhook = await f.webhook();
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = fakeTransport(clock);
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    expect(await worker.runDue()).toBe(1);
    expect(transport.sent).toHaveLength(1);
    const [request] = transport.sent as [SentRequest];
    expect(request.url).toBe(webhook.url);
    expect(text(request)).toBe(delivery.body);
    expect(request.body).toEqual(new TextEncoder().encode(delivery.body));
    expect(request.headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'ocs-webhooks/1',
      [deliveryAttemptHeader]: '1',
      'X-Signature-256': `sha256=${hmacHex(webhook.secret ?? '', request.body)}`,
    });
    expect(await store().deliveries.get(delivery.id)).toMatchObject({
      status: 'delivered',
      attempts_made: 1,
      delivered_at: replyTime.toISOString(),
      next_attempt_at: null,
      last_error: null,
    });
    expect(await store().deliveries.listAttempts(delivery.id)).toEqual([
      {
        delivery_id: delivery.id,
        attempt: 1,
        webhook_id: webhook.id,
        url: webhook.url,
        started_at: replyTime.toISOString(),
        ok: true,
        status: 200,
        duration_ms: 3,
        error: null,
      },
    ]);
    expect(worker.counts).toMatchObject({ attempts: 1, requests: 1, delivered: 1, retried: 0, failed: 0 });
    expect(await worker.runDue()).toBe(0);
  });

  it('sends no signature header to a webhook without a secret', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook({ secret: null });
    await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = fakeTransport(clock);
    await createDeliveryWorker({ store: store(), transport, clock }).runDue();
    expect(transport.sent).toHaveLength(1);
    expect(Object.keys(transport.sent[0]?.headers ?? {}).map((h) => h.toLowerCase())).not.toContain('x-signature-256');
  });

  it('retries every 15 minutes on the clock, the same bytes and key each time, and fails after 5 attempts', async () => {
    const f = await deliveryFixtures(store());
    const webhook = await f.webhook();
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = fakeTransport(clock, () => answer.status(503));
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await worker.runDue()).toBe(1);
      const due = await worker.nextDueAt();
      if (attempt < 5) {
        expect(due).toEqual(new Date(at(minutes(15 * attempt))));
        // Nothing is retried early.
        clock.set(new Date((due as Date).getTime() - 1));
        expect(await worker.runDue()).toBe(0);
        clock.set(due as Date);
      } else {
        expect(due).toBeNull();
      }
    }
    expect(transport.sent.map((r) => r.sentAt)).toEqual([0, 15, 30, 45, 60].map((m) => at(minutes(m))));
    expect(transport.sent.map((r) => r.headers[deliveryAttemptHeader])).toEqual(['1', '2', '3', '4', '5']);
    for (const request of transport.sent) {
      expect(text(request)).toBe(delivery.body);
      expect(JSON.parse(text(request)).idempotency_key).toBe(delivery.idempotency_key);
      expect(request.headers['X-Signature-256']).toBe(`sha256=${hmacHex(webhook.secret ?? '', request.body)}`);
    }
    const stored = await store().deliveries.get(delivery.id);
    expect(stored).toMatchObject({
      status: 'failed',
      attempts_made: 5,
      next_attempt_at: null,
      failed_at: at(minutes(60)),
    });
    expect(stored?.last_error).toContain('all 5 attempts');
    expect((await store().deliveries.listAttempts(delivery.id)).map((a) => [a.attempt, a.status, a.ok])).toEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 503, false],
      [4, 503, false],
      [5, 503, false],
    ]);
    clock.set(at(minutes(24 * 60)));
    expect(await worker.runDue()).toBe(0);
    expect(transport.sent).toHaveLength(5);
    expect(worker.counts).toMatchObject({ attempts: 5, retried: 4, failed: 1, delivered: 0 });
  });

  it('makes no attempt later than 48 hours after the reply', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    // A retry that came due while the server was down for two days.
    const delivery = await f.enqueue({ attempts_made: 1, next_attempt_at: at(minutes(15)) });
    const clock = manualClock(new Date(at(minutes(48 * 60 + 1))));
    const transport = fakeTransport(clock);
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    expect(await worker.runDue()).toBe(0);
    expect(transport.sent).toEqual([]);
    const stored = await store().deliveries.get(delivery.id);
    expect(stored).toMatchObject({ status: 'failed', attempts_made: 1, next_attempt_at: null });
    expect(stored?.last_error).toContain('48 hours');
  });

  it('delivers when one of two webhooks answers 2xx, without retrying; retries when both fail', async () => {
    const f = await deliveryFixtures(store());
    const failing = await f.webhook({ enabled: false, url: 'https://failing.example.com/hook' });
    const working = await f.webhook({ enabled: false, url: 'https://working.example.com/hook', secret: null });
    const clock = manualClock(replyTime);
    let workingAnswers = true;
    const transport = fakeTransport(clock, (request) =>
      request.url === working.url && workingAnswers ? answer.ok(204) : answer.status(500),
    );
    const worker = createDeliveryWorker({ store: withEnabledWebhooks(store(), [failing, working]), transport, clock });

    const oneSucceeds = await f.enqueue();
    expect(await worker.runDue()).toBe(1);
    expect(transport.sent.map((r) => r.url).sort()).toEqual([failing.url, working.url].sort());
    expect(await store().deliveries.get(oneSucceeds.id)).toMatchObject({ status: 'delivered', attempts_made: 1 });
    const rows = await store().deliveries.listAttempts(oneSucceeds.id);
    expect(rows.map((r) => [r.url, r.ok, r.status]).sort()).toEqual(
      [
        [failing.url, false, 500],
        [working.url, true, 204],
      ].sort(),
    );
    expect(await worker.nextDueAt()).toBeNull();

    workingAnswers = false;
    const allFail = await f.enqueue();
    expect(await worker.runDue()).toBe(1);
    const stored = await store().deliveries.get(allFail.id);
    expect(stored).toMatchObject({ status: 'pending', attempts_made: 1, next_attempt_at: at(minutes(15)) });
    expect(stored?.last_error).toContain(failing.url);
    expect(await store().deliveries.listAttempts(allFail.id)).toHaveLength(2);
  });

  it('sends to the webhooks enabled at attempt time: a disabled one stops receiving', async () => {
    const f = await deliveryFixtures(store());
    const first = await f.webhook();
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = fakeTransport(clock, (request) => (request.url === first.url ? answer.status(500) : answer.ok()));
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    await worker.runDue();
    // The operator moves the slot to another receiver before the retry.
    await store().webhooks.update(f.campaign.id, first.id, { enabled: false });
    const second = await f.webhook({ secret: null });
    clock.set(at(minutes(15)));
    await worker.runDue();
    expect(transport.sent.map((r) => r.url)).toEqual([first.url, second.url]);
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'delivered', attempts_made: 2 });
  });

  it('drops a delivery when the campaign has no enabled webhook at attempt time', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook({ enabled: false });
    const delivery = await f.enqueue();
    const clock = manualClock(replyTime);
    const transport = fakeTransport(clock);
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    expect(await worker.runDue()).toBe(0);
    expect(transport.sent).toEqual([]);
    const stored = await store().deliveries.get(delivery.id);
    expect(stored).toMatchObject({ status: 'failed', attempts_made: 0, next_attempt_at: null });
    expect(stored?.last_error).toContain('no enabled webhook');
    expect(await store().deliveries.listAttempts(delivery.id)).toEqual([]);
  });

  it('drains many deliveries with bounded parallelism, each exactly once', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    const keys = new Set<string>();
    for (let i = 0; i < 120; i++) keys.add((await f.enqueue()).idempotency_key);
    const clock = manualClock(replyTime);
    let inFlight = 0;
    let mostInFlight = 0;
    const transport = fakeTransport(clock, async () => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return answer.ok();
    });
    const worker = createDeliveryWorker({ store: store(), transport, clock, batchSize: 16, concurrency: 8 });
    expect(await worker.runDue()).toBe(120);
    expect(mostInFlight).toBeLessThanOrEqual(8);
    expect(mostInFlight).toBeGreaterThan(1);
    const sentKeys = transport.sent.map((r) => JSON.parse(text(r)).idempotency_key as string);
    expect(sentKeys).toHaveLength(120);
    expect(new Set(sentKeys)).toEqual(keys);
    expect(await worker.nextDueAt()).toBeNull();
  });

  it('runs in the background: a notify starts it at once, and stop waits for attempts in flight', async () => {
    const f = await deliveryFixtures(store());
    await f.webhook();
    const clock = manualClock(replyTime);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transport = fakeTransport(clock, async () => {
      await held;
      return answer.ok();
    });
    const worker = createDeliveryWorker({ store: store(), transport, clock });
    // A poll interval longer than the test's timeout: only notify() can start the attempt.
    worker.start({ pollMs: 600_000 });
    const delivery = await f.enqueue();
    worker.notify();
    await vi.waitFor(() => expect(transport.sent).toHaveLength(1), { timeout: 10_000, interval: 10 });
    const stopped = worker.stop();
    release();
    await stopped;
    expect(await store().deliveries.get(delivery.id)).toMatchObject({ status: 'delivered' });
  });
});
