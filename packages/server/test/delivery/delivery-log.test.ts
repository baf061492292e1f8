/**
 * What the worker logs: a line per request of an attempt (event, webhook, status, time taken,
 * next attempt) and one when the delivery is given up, never the lead's personal data that
 * the event's body carries, nor a webhook URL's query string or credentials.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { createFetchTransport } from '../../src/delivery/fetch-transport.ts';
import { withoutUrlSecrets } from '../../src/delivery/log-lines.ts';
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

it("logs a webhook URL's origin and path only: never its query string (a token) or credentials", async () => {
  // A receiver that fails every attempt, registered with a token in its query.
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(503).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    const store = createMemoryStore();
    // Two campaigns (one webhook slot each): a token in the query, and credentials as well.
    const withToken = await deliveryFixtures(store);
    await withToken.webhook({ url: `http://127.0.0.1:${port}/hooks/ocs?token=query-token-0123#frag` });
    const delivery = await withToken.enqueue();
    // Registration refuses credentials today; a webhook stored before, or another store's, may have them.
    const withCredentials = await deliveryFixtures(store);
    await withCredentials.webhook({ url: 'http://hook-user:hook-password@127.0.0.1:1/other?token=second-token-4567' });
    await withCredentials.enqueue();
    const clock = manualClock(replyTime);
    const lines: LogEntry[] = [];
    // The real fetch transport: its error for a URL with credentials quotes the URL whole.
    const worker = createDeliveryWorker({
      store,
      transport: createFetchTransport({ timeoutMs: 10_000 }),
      clock,
      logger: { log: (entry) => lines.push(entry) },
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      clock.set(at(minutes(15 * (attempt - 1))));
      expect(await worker.runDue()).toBe(2);
    }

    expect(lines.filter((line) => line.message === 'delivery attempt')).toHaveLength(10);
    const reasons = lines.filter((line) => line.message === 'delivery given up').map((line) => String(line.reason));
    expect(reasons).toHaveLength(2);
    expect(reasons.join('\n')).toContain(`(last: http://127.0.0.1:${port}/hooks/ocs: receiver answered 503)`);
    expect(reasons.join('\n')).toContain('(last: http://127.0.0.1:1/other: ');
    const logged = JSON.stringify(lines);
    for (const secret of ['query-token-0123', 'second-token-4567', 'hook-user', 'hook-password', '#frag', '?token']) {
      expect(logged).not.toContain(secret);
    }
    // What the store keeps for the API (the campaign owner's own URLs) is left as it was.
    expect((await store.deliveries.get(delivery.id))?.last_error).toContain('query-token-0123');
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

it('withoutUrlSecrets keeps the text around each URL and the URL up to its path', () => {
  expect(
    withoutUrlSecrets(
      'every webhook failed (last: https://u:p@ss@hooks.example.com:8443/a/b?t=1: answered 500; http://h.example/x#y: timeout)',
    ),
  ).toBe('every webhook failed (last: https://hooks.example.com:8443/a/b: answered 500; http://h.example/x: timeout)');
  expect(withoutUrlSecrets('no URL here: status 503')).toBe('no URL here: status 503');
});
