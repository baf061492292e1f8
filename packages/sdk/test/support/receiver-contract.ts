/**
 * What every receiver must do, over real HTTP on loopback, whatever the framework: the
 * adapter's test starts it its own way (`start`) and runs this suite. Requests are signed
 * with the SDK's own `createSignedRequest` and `sign`, as the service signs them.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Deduplicator } from '../../src/webhooks/dedupe.ts';
import {
  createDeduplicator,
  createMemoryStore,
  createSignedRequest,
  type ProspectResponseEvent,
  sign,
} from '../../src/webhooks/node.ts';
import { exampleEvent } from './event.ts';

export const secret = 'whsec_receiver_contract_01';

/** The options every adapter takes, as the contract uses them. */
export interface ContractOptions {
  secret: string | string[];
  onEvent: (event: ProspectResponseEvent) => unknown;
  dedupe?: Deduplicator | false;
  onError?: (error: Error & { reason: string }) => void;
}

/** Starts the receiver on 127.0.0.1 and a free port; `url` is where it receives deliveries. */
export type StartReceiver = (options: ContractOptions) => Promise<{ url: string; close: () => Promise<void> }>;

let sequence = 0;
/** An event with an idempotency key of its own (64 hex digits, as the service makes them). */
export function freshEvent(message = 'Sounds good, send me a time.'): ProspectResponseEvent {
  const idempotency_key = createHash('sha256').update(`contract ${process.pid} ${++sequence}`).digest('hex');
  return { ...exampleEvent(), idempotency_key, prospect_message: message };
}

/** POSTs a body with the signature given (or none), as raw bytes. */
export const post = (url: string, body: string, signature?: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-signature-256': signature } : {}) },
    body,
  });

export const deliver = async (url: string, event: ProspectResponseEvent, key = secret) =>
  fetch(await createSignedRequest(url, event, key));

/** A promise and the functions that settle it: to hold an `onEvent` while a copy arrives. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

export function receiverContract(start: StartReceiver): void {
  const running: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((close) => close()));
  });
  const receiver = async (options: Partial<ContractOptions> = {}) => {
    const onEvent = vi.fn(options.onEvent ?? (() => {}));
    const onError = vi.fn(options.onError ?? (() => {}));
    const started = await start({ secret, ...options, onEvent, onError });
    running.push(started.close);
    return { ...started, onEvent, onError };
  };

  describe('a good delivery', () => {
    it('reaches onEvent once, typed and whole, and answers 200; a repeat answers 200 without reaching it', async () => {
      const { url, onEvent } = await receiver();
      const event = freshEvent();
      const first = await deliver(url, event);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await first.json()).toEqual({ status: 'handled' });
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(onEvent.mock.calls[0]?.[0]).toEqual(event);

      const repeat = await deliver(url, event);
      expect(repeat.status).toBe(200);
      expect(await repeat.json()).toEqual({ status: 'duplicate' });
      expect(onEvent).toHaveBeenCalledTimes(1);
    });

    it('verifies against any of several secrets (rotation)', async () => {
      const { url, onEvent } = await receiver({ secret: ['whsec_next_secret_012345', secret] });
      expect((await deliver(url, freshEvent(), 'whsec_next_secret_012345')).status).toBe(200);
      expect((await deliver(url, freshEvent(), secret)).status).toBe(200);
      expect(onEvent).toHaveBeenCalledTimes(2);
    });
  });

  describe('a bad signature answers 401, saying which cause, never the secret or the expected signature', () => {
    const event = freshEvent();
    const body = JSON.stringify(event);
    const causes: Array<[string, string, (url: string) => Promise<Response>, Partial<ContractOptions>?]> = [
      ['no header', 'missing_signature', (url) => post(url, body)],
      ['a malformed header', 'malformed_signature', (url) => post(url, body, `sha1=${'ab'.repeat(20)}`)],
      [
        'a body parsed and re-serialized on its way',
        'reserialized_body',
        async (url) => post(url, JSON.stringify(event, null, 2), await sign(body, secret)),
      ],
      ['no secret matched', 'signature_mismatch', (url) => deliver(url, event, 'whsec_someone_else_0123')],
      ['whitespace around the secret', 'secret_whitespace', (url) => deliver(url, event), { secret: `${secret}\n` }],
    ];

    it.each(causes)('%s: %s', async (_cause, reason, send, options = {}) => {
      const { url, onEvent, onError } = await receiver(options);
      const response = await send(url);
      expect(response.status).toBe(401);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ reason, message: expect.any(String) });
      expect(text).not.toContain(secret);
      const expected = (await sign(body, secret)).slice(7);
      expect(text).not.toContain(expected);
      expect(text).not.toContain(expected.slice(0, 12));
      expect(onEvent).not.toHaveBeenCalled();
      expect(onError).toHaveBeenCalledTimes(1);
      expect(onError.mock.calls[0]?.[0]).toMatchObject({ name: 'WebhookVerificationError', reason });
    });
  });

  describe('a failing onEvent', () => {
    it('answers 500 so that the service retries, and the retry is processed: the key is recorded only after success', async () => {
      let calls = 0;
      const { url, onEvent, onError } = await receiver({
        onEvent: () => {
          if (++calls === 1) throw new Error('CRM unreachable');
        },
      });
      const event = freshEvent();
      const failed = await deliver(url, event);
      expect(failed.status).toBe(500);
      const answer = (await failed.json()) as { reason: string; message: string };
      expect(answer.reason).toBe('handler_failed');
      // What onEvent threw stays in the receiver's logs, not in the answer.
      expect(answer.message).not.toContain('CRM unreachable');
      expect(onError.mock.calls[0]?.[0]).toMatchObject({
        name: 'WebhookReceiverError',
        reason: 'handler_failed',
        cause: new Error('CRM unreachable'),
      });

      expect(await (await deliver(url, event)).json()).toEqual({ status: 'handled' });
      expect(await (await deliver(url, event)).json()).toEqual({ status: 'duplicate' });
      expect(onEvent).toHaveBeenCalledTimes(2);
    });
  });

  describe('two copies of one event at once (two webhooks of a campaign)', () => {
    it('the second is refused with 409 while the first is processed, and skipped after it succeeded', async () => {
      const held = gate();
      const { url, onEvent } = await receiver({ onEvent: () => held.promise });
      const event = freshEvent();
      const first = deliver(url, event);
      await vi.waitFor(() => expect(onEvent).toHaveBeenCalledTimes(1));
      const copy = await deliver(url, event);
      expect(copy.status).toBe(409);
      expect(await copy.json()).toMatchObject({ reason: 'in_flight' });
      held.open();
      expect((await first).status).toBe(200);
      expect(await (await deliver(url, event)).json()).toEqual({ status: 'duplicate' });
      expect(onEvent).toHaveBeenCalledTimes(1);
    });

    it('is processed on its retry when the first failed: not lost', async () => {
      const held = gate();
      let calls = 0;
      const { url, onEvent } = await receiver({ onEvent: () => (++calls === 1 ? held.promise : undefined) });
      const event = freshEvent();
      const first = deliver(url, event);
      await vi.waitFor(() => expect(onEvent).toHaveBeenCalledTimes(1));
      expect((await deliver(url, event)).status).toBe(409);
      held.fail(new Error('database down'));
      expect((await first).status).toBe(500);
      expect(await (await deliver(url, event)).json()).toEqual({ status: 'handled' });
      expect(onEvent).toHaveBeenCalledTimes(2);
    });
  });

  describe('the store', () => {
    it('is pluggable: two receivers on one shared store (two processes) process an event once', async () => {
      const dedupe = createDeduplicator({ store: createMemoryStore() });
      const a = await receiver({ dedupe });
      const b = await receiver({ dedupe });
      const event = freshEvent();
      expect(await (await deliver(a.url, event)).json()).toEqual({ status: 'handled' });
      expect(await (await deliver(b.url, event)).json()).toEqual({ status: 'duplicate' });
      expect(a.onEvent).toHaveBeenCalledTimes(1);
      expect(b.onEvent).not.toHaveBeenCalled();
    });

    it('can be turned off: every delivery reaches onEvent', async () => {
      const { url, onEvent } = await receiver({ dedupe: false });
      const event = freshEvent();
      for (let i = 0; i < 2; i++) expect(await (await deliver(url, event)).json()).toEqual({ status: 'handled' });
      expect(onEvent).toHaveBeenCalledTimes(2);
    });
  });

  describe('other refusals', () => {
    it('a signed body that is not an event answers 400', async () => {
      const { url, onEvent } = await receiver();
      const response = await post(url, '{"event":"ping"}', await sign('{"event":"ping"}', secret));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ reason: 'invalid_payload' });
      expect(onEvent).not.toHaveBeenCalled();
    });
  });
}
