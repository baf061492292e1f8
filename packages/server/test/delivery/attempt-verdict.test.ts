/**
 * The Node transport (the server's) and the fetch transport (the mock's) against the same
 * receivers on 127.0.0.1: one outcome, one text in the attempt's `error` (they differed:
 * `answered 500` against `receiver answered 500`, `fetch failed: ...` against `request failed: ...`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailure, requestFailed } from '../../src/delivery/attempt-verdict.ts';
import { createFetchTransport } from '../../src/delivery/fetch-transport.ts';
import type { DeliveryRequest, WebhookTransport } from '../../src/delivery/types.ts';
import { createNodeWebhookTransport } from '../../src/node/webhook-transport.ts';
import { type ReceiverHandler, startLoopbackReceiver } from '../support/loopback-receiver.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function transports(): Array<[string, WebhookTransport]> {
  const node = createNodeWebhookTransport({ allowInsecure: true, timeoutMs: 2_000 });
  cleanups.push(() => node.close());
  return [
    ['node', node],
    ['fetch', createFetchTransport({ timeoutMs: 2_000 })],
  ];
}

const delivery = (url: string): DeliveryRequest => ({
  url,
  body: new TextEncoder().encode('{"event":"prospect_response"}'),
  headers: { 'Content-Type': 'application/json' },
});

async function receiver(handler: ReceiverHandler): Promise<string> {
  const started = await startLoopbackReceiver(handler);
  cleanups.push(() => started.close());
  return `${started.origin}/hook`;
}

describe('what an attempt says, whichever transport sent it', () => {
  it.each([
    [500, 'receiver answered 500'],
    [404, 'receiver answered 404'],
    [302, 'redirect not followed (302)'],
    [204, null],
  ])('a receiver answering %i: %s', async (status, error) => {
    const url = await receiver((_request, response) => {
      response.writeHead(status, status === 302 ? { Location: '/elsewhere' } : {}).end();
    });
    for (const [name, transport] of transports()) {
      const outcome = await transport.send(delivery(url));
      expect({ name, ok: outcome.ok, status: outcome.status, error: outcome.error }).toEqual({
        name,
        ok: error === null,
        status,
        error,
      });
    }
  });

  it('a refused connection: request failed, with the system’s reason', async () => {
    const closed = await startLoopbackReceiver();
    await closed.close();
    const url = `${closed.origin}/hook`;
    const errors = [];
    for (const [, transport] of transports()) errors.push((await transport.send(delivery(url))).error);
    expect(errors[0]).toMatch(/^request failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(errors[1]).toBe(errors[0]);
  });
});

describe('describeFailure', () => {
  it('names a failure by its message, else its code, else its name; through fetch’s bare `fetch failed`', () => {
    // Happy eyeballs: both of a host's addresses refused, as undici reports it under fetch.
    const both = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    expect(requestFailed(new TypeError('fetch failed', { cause: both }))).toBe('request failed: ECONNREFUSED');
    expect(requestFailed(both)).toBe('request failed: ECONNREFUSED');
    expect(describeFailure(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe('bad port');
    expect(describeFailure(new Error('socket hang up'))).toBe('socket hang up');
    expect(describeFailure(new Error('', { cause: new Error('inner') }))).toBe('Error: inner');
    expect(describeFailure('text')).toBe('text');
  });
});
