/**
 * What the worker logs: a line per request of an attempt (event, webhook, status, time taken,
 * next attempt) and one when the delivery is given up, never the lead's personal data that
 * the event's body carries.
 */
import { expect, it } from 'vitest';
import { createDeliveryWorker } from '../../src/delivery/worker.ts';
import type { LogEntry } from '../../src/http/logger.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { at, deliveryFixtures, minutes, randomKey, replyTime } from '../support/delivery-fixtures.ts';
import { answer, fakeTransport, manualClock } from '../support/fake-transport.ts';

const personal = {
  email: 'marguerite.okonkwo-vale@example.net',
  first_name: 'Marguerite',
  last_name: 'Okonkwo-Vale',
  reply: 'Call me on my private line tomorrow about the Zanzibar offsite',
};

function bodyWithPersonalData(key: string): string {
  return JSON.stringify({
    event: 'prospect_response',
    idempotency_key: key,
    lead: { email: personal.email, first_name: personal.first_name, last_name: personal.last_name },
    prospect_message: personal.reply,
  });
}

it('logs every failed attempt with its webhook, status, time and next attempt, then the delivery given up, without personal data', async () => {
  const store = createMemoryStore();
  const f = await deliveryFixtures(store);
  const webhook = await f.webhook();
  const key = randomKey();
  const delivery = await f.enqueue({ idempotency_key: key, body: bodyWithPersonalData(key) });
  const clock = manualClock(replyTime);
  const lines: LogEntry[] = [];
  const worker = createDeliveryWorker({
    store,
    transport: fakeTransport(clock, () => answer.status(503)),
    clock,
    logger: { log: (entry) => lines.push(entry) },
  });

  for (let attempt = 1; attempt <= 5; attempt++) {
    clock.set(at(minutes(15 * (attempt - 1))));
    expect(await worker.runDue()).toBe(1);
  }

  const attempts = lines.filter((line) => line.message === 'delivery attempt');
  expect(attempts).toHaveLength(5);
  for (const [i, line] of attempts.entries()) {
    const last = i === 4;
    expect(line).toEqual({
      level: 'warn',
      message: 'delivery attempt',
      event: 'prospect_response',
      delivery_id: delivery.id,
      campaign_id: delivery.campaign_id,
      attempt: i + 1,
      webhook_id: webhook.id,
      ok: false,
      status: 503,
      duration_ms: 3,
      error: 'status 503',
      outcome: last ? 'failed' : 'pending',
      next_attempt_at: last ? null : at(minutes(15 * (i + 1))),
    });
  }
  const givenUp = lines.filter((line) => line.message === 'delivery given up');
  expect(givenUp).toEqual([
    {
      level: 'error',
      message: 'delivery given up',
      event: 'prospect_response',
      delivery_id: delivery.id,
      campaign_id: delivery.campaign_id,
      attempts_made: 5,
      reason: expect.stringContaining('every webhook failed on all 5 attempts') as unknown,
    },
  ]);
  expect(lines).toHaveLength(6);
  const logged = JSON.stringify(lines).toLowerCase();
  for (const value of Object.values(personal)) expect(logged).not.toContain(value.toLowerCase());
  expect(logged).not.toContain('okonkwo');
});

it('logs a delivered attempt at info, with no next attempt and nothing given up', async () => {
  const store = createMemoryStore();
  const f = await deliveryFixtures(store);
  const webhook = await f.webhook();
  await f.enqueue();
  const clock = manualClock(replyTime);
  const lines: LogEntry[] = [];
  const worker = createDeliveryWorker({
    store,
    transport: fakeTransport(clock, () => answer.ok(204)),
    clock,
    logger: { log: (entry) => lines.push(entry) },
  });
  expect(await worker.runDue()).toBe(1);
  expect(lines).toEqual([
    expect.objectContaining({
      level: 'info',
      message: 'delivery attempt',
      webhook_id: webhook.id,
      ok: true,
      status: 204,
      error: null,
      outcome: 'delivered',
      next_attempt_at: null,
    }),
  ]);
});
