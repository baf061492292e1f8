/**
 * Each receiver, served on loopback and driven over real HTTP with requests signed by
 * `@ocs/sdk/webhooks` as the service signs them: a good signature is handled once, a replay
 * is acknowledged but not handled again, a bad or missing signature answers 401.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSignedRequest, type ProspectResponseEvent, sign } from '@ocs/sdk/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressReceiver } from '../src/express.ts';
import { createFetchReceiver } from '../src/fetch-handler.ts';
import { createHonoReceiver } from '../src/hono.ts';
import { createNodeHttpReceiver } from '../src/node-http.ts';
import type { ReceiverOptions } from '../src/options.ts';
import { createEventQueue } from '../src/queue.ts';
import { event } from './event.ts';

const secret = 'whsec_example_receivers_01';

/** Starts a receiver on 127.0.0.1 and an ephemeral port; resolves with its URL and a stop function. */
type Start = (options: ReceiverOptions) => Promise<{ url: string; close: () => Promise<void> }>;

const listening = async (server: Server, path = '/webhooks/ocs') => {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const receivers: Array<[string, Start]> = [
  ['node:http', async (options) => listening(createNodeHttpReceiver(options).listen(0, '127.0.0.1'))],
  ['Express 5', async (options) => listening(createExpressReceiver(options).listen(0, '127.0.0.1'))],
  [
    'Hono on @hono/node-server',
    async (options) =>
      listening(serve({ fetch: createHonoReceiver(options).fetch, port: 0, hostname: '127.0.0.1' }) as Server),
  ],
  [
    'Fetch handler',
    async (options) =>
      listening(serve({ fetch: createFetchReceiver(options), port: 0, hostname: '127.0.0.1' }) as Server),
  ],
];

describe.each(receivers)('%s receiver', (_name, start) => {
  const handled: ProspectResponseEvent[] = [];
  const queue = createEventQueue((e) => {
    handled.push(e);
  });
  let receiver: Awaited<ReturnType<Start>>;

  beforeAll(async () => {
    receiver = await start({ secret, queue });
  });
  afterAll(() => receiver.close());

  it('answers 2xx to a signed event and handles it once; a replay is acknowledged, not handled again', async () => {
    const delivery = event('a'.repeat(64));
    const first = await fetch(await createSignedRequest(receiver.url, delivery, secret));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'handled' });
    // The service retries with the same bytes and idempotency_key.
    const replay = await fetch(await createSignedRequest(receiver.url, delivery, secret));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ status: 'duplicate' });
    await queue.idle();
    expect(handled.filter((e) => e.idempotency_key === delivery.idempotency_key)).toEqual([delivery]);
  });

  it('answers 401 to a wrong signature and handles nothing', async () => {
    const delivery = event('b'.repeat(64));
    const forged = await fetch(await createSignedRequest(receiver.url, delivery, 'whsec_not_the_secret_00'));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ reason: 'signature_mismatch' });
    const body = JSON.stringify(delivery);
    const tampered = await fetch(receiver.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature-256': await sign(`${body} `, secret) },
      body,
    });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ reason: 'signature_mismatch' });
    await queue.idle();
    expect(handled.some((e) => e.idempotency_key === delivery.idempotency_key)).toBe(false);
  });

  it('answers 401 when the signature header is missing', async () => {
    const response = await fetch(receiver.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event('c'.repeat(64))),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ reason: 'missing_signature' });
  });

  it('answers 400 to a signed body that is not an event', async () => {
    const response = await fetch(await createSignedRequest(receiver.url, '{"event":"ping"}', secret));
    expect(response.status).toBe(400);
  });

  it('accepts the previous secret during a rotation', async () => {
    const rotating = await start({ secret: [secret, 'whsec_previous_secret_01'], queue });
    try {
      const delivery = event('d'.repeat(64));
      const response = await fetch(await createSignedRequest(rotating.url, delivery, 'whsec_previous_secret_01'));
      expect(response.status).toBe(200);
      await queue.idle();
      expect(handled.some((e) => e.idempotency_key === delivery.idempotency_key)).toBe(true);
    } finally {
      await rotating.close();
    }
  });
});
