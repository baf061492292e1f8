/** The Node webhook transport against real receivers on 127.0.0.1: what one attempt comes to. */
import type { LookupAddress } from 'node:dns';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../src/delivery/types.ts';
import { createNodeWebhookTransport, type NodeWebhookTransport } from '../../src/node/webhook-transport.ts';
import { type LoopbackReceiver, type ReceiverHandler, startLoopbackReceiver } from '../support/loopback-receiver.ts';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(handler?: ReceiverHandler): Promise<LoopbackReceiver> {
  const started = await startLoopbackReceiver(handler);
  cleanups.push(() => started.close());
  return started;
}

function transport(options: Parameters<typeof createNodeWebhookTransport>[0] = {}): NodeWebhookTransport {
  const created = createNodeWebhookTransport({ allowInsecure: true, ...options });
  cleanups.push(() => created.close());
  return created;
}

const signedHeaders = {
  'Content-Type': 'application/json',
  'User-Agent': 'OCS-Webhooks/1.0',
  'X-Signature-256': 'sha256=5d41402abc4b2a76b9719d911017c592c5b1c7a2e3f4a5b6c7d8e9f0a1b2c3d4',
};

function delivery(url: string, body: Uint8Array = new TextEncoder().encode('{"event":"prospect_response"}')) {
  return { url, body, headers: signedHeaders } satisfies DeliveryRequest;
}

const answer =
  (status: number, headers: Record<string, string> = {}, body = ''): ReceiverHandler =>
  (_request, response) => {
    response.writeHead(status, headers).end(body);
  };

describe('createNodeWebhookTransport', () => {
  it('counts a 2xx as delivered', async () => {
    const target = await receiver(answer(200, {}, 'thanks'));
    const outcome = await transport().send(delivery(`${target.origin}/hook`));
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
    expect(outcome.duration_ms).toBeGreaterThanOrEqual(0);
    expect(target.requests).toHaveLength(1);
  });

  it('sends a POST with the exact body bytes, the given headers, path and query', async () => {
    const target = await receiver();
    // Bytes that are not valid UTF-8 would be mangled by any string round trip.
    const body = Uint8Array.from([0x7b, 0x22, 0xc3, 0xa9, 0xff, 0x00, 0xfe, 0x22, 0x7d]);
    const outcome = await transport().send(delivery(`${target.origin}/ocs/hook?tenant=7&x=a%20b`, body));
    expect(outcome).toMatchObject({ ok: true, status: 204 });
    const [received] = target.requests;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/ocs/hook?tenant=7&x=a%20b');
    expect(received?.body.equals(Buffer.from(body))).toBe(true);
    expect(received?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'OCS-Webhooks/1.0',
      'x-signature-256': signedHeaders['X-Signature-256'],
      'content-length': String(body.byteLength),
    });
  });

  it.each([500, 503, 404, 429, 400])('counts %i as a failure with its status', async (status) => {
    const target = await receiver(answer(status, {}, 'no'));
    const outcome = await transport().send(delivery(`${target.origin}/hook`));
    expect(outcome).toMatchObject({ ok: false, status, error: `receiver answered ${status}` });
  });

  it.each([301, 302, 303, 307, 308])('does not follow a %i redirect', async (status) => {
    const target = await receiver((request, response) => {
      if (request.url === '/hook') response.writeHead(status, { Location: '/elsewhere' }).end();
      else response.writeHead(200).end();
    });
    const outcome = await transport().send(delivery(`${target.origin}/hook`));
    expect(outcome).toMatchObject({ ok: false, status, error: `redirect not followed (${status})` });
    expect(target.requests.map((request) => request.url)).toEqual(['/hook']);
  });

  it('gives up after timeoutMs when the receiver never answers', async () => {
    const target = await receiver(() => undefined);
    const outcome = await transport({ timeoutMs: 200 }).send(delivery(`${target.origin}/hook`));
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timeout after 200 ms' });
    expect(target.requests).toHaveLength(1);
  });

  it('counts the whole response against the timeout: a 200 whose body never ends is a timeout', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('partial');
    });
    const outcome = await transport({ timeoutMs: 200 }).send(delivery(`${target.origin}/hook`));
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timeout after 200 ms' });
  });

  it('keeps the connection alive across attempts to one receiver', async () => {
    const target = await receiver(answer(200, {}, 'ok'));
    const sender = transport();
    for (let i = 0; i < 5; i++) {
      expect((await sender.send(delivery(`${target.origin}/hook`))).ok).toBe(true);
    }
    expect(target.requests).toHaveLength(5);
    expect(target.connections).toBe(1);
  });

  it('discards a large response body and still counts its status', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const target = await receiver(answer(200, { 'Content-Type': 'text/plain' }, big));
    const sender = transport();
    expect(await sender.send(delivery(`${target.origin}/hook`))).toMatchObject({ ok: true, status: 200 });
    // The over-long answer cost its socket, not the transport: the next attempt goes through.
    expect(await sender.send(delivery(`${target.origin}/hook`))).toMatchObject({ ok: true, status: 200 });
    expect(target.requests).toHaveLength(2);
    expect(target.connections).toBe(2);
  });

  it('stops when the signal aborts', async () => {
    const target = await receiver(() => undefined);
    const controller = new AbortController();
    const pending = transport().send(delivery(`${target.origin}/hook`), { signal: controller.signal });
    while (target.requests.length === 0) await new Promise((tick) => setTimeout(tick, 5));
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, status: null, error: 'aborted', aborted: true });
  });

  it('one signal over many attempts in flight (the worker’s): one listener on it, no leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    cleanups.push(() => process.off('warning', onWarning));
    const sender = transport();
    const sendMany = (origin: string, signal: AbortSignal) =>
      Array.from({ length: 24 }, (_, i) => sender.send(delivery(`${origin}/hook/${i}`), { signal }));

    const silent = await receiver(() => undefined);
    const stop = new AbortController();
    const pending = sendMany(silent.origin, stop.signal);
    while (silent.requests.length < 24) await new Promise((tick) => setTimeout(tick, 5));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    for (const outcome of await Promise.all(pending))
      expect(outcome).toMatchObject({ error: 'aborted', aborted: true });

    // Answered attempts over one signal, then its abort: nothing left to stop.
    const answering = await receiver(answer(204));
    const later = new AbortController();
    for (const outcome of await Promise.all(sendMany(answering.origin, later.signal)))
      expect(outcome).toMatchObject({ ok: true, status: 204 });
    later.abort();
    // Node emits the warning on a later tick.
    await new Promise((tick) => setTimeout(tick, 20));
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });

  it('does not start when the signal has already aborted', async () => {
    const target = await receiver();
    const outcome = await transport().send(delivery(`${target.origin}/hook`), { signal: AbortSignal.abort() });
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'aborted', aborted: true });
    expect(target.connections).toBe(0);
  });

  it('an abort after the status line keeps the answer: the receiver did answer', async () => {
    // The status and a first chunk are sent; the body never ends.
    const target = await receiver((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/plain' });
      response.write('still writing');
    });
    const controller = new AbortController();
    const pending = transport().send(delivery(`${target.origin}/hook`), { signal: controller.signal });
    while (target.requests.length === 0) await new Promise((tick) => setTimeout(tick, 5));
    // Let the status line, sent with the request's end, reach the transport (loopback: well
    // within this) before the abort.
    await new Promise((tick) => setTimeout(tick, 300));
    controller.abort();
    const outcome = await pending;
    expect(outcome).toMatchObject({ ok: true, status: 200, error: null });
    expect(outcome.aborted).toBeUndefined();
  });

  it('a timeout is no abort: it says something about the receiver', async () => {
    const target = await receiver(() => undefined);
    const outcome = await transport({ timeoutMs: 50 }).send(delivery(`${target.origin}/hook`), {
      signal: new AbortController().signal,
    });
    expect(outcome).toMatchObject({ ok: false, status: null, error: 'timeout after 50 ms' });
    expect(outcome.aborted).toBeUndefined();
  });

  it('reports a refused connection without throwing', async () => {
    const closed = await startLoopbackReceiver();
    await closed.close();
    const outcome = await transport().send(delivery(`${closed.origin}/hook`));
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/^request failed: .*ECONNREFUSED/);
  });

  it('reports headers Node refuses to send without throwing', async () => {
    const target = await receiver();
    const request = { ...delivery(`${target.origin}/hook`), headers: { 'X-Bad': 'line\r\nbreak' } };
    const outcome = await transport().send(request);
    expect(outcome).toMatchObject({ ok: false, status: null });
    expect(outcome.error).toMatch(/^request failed: /);
    expect(target.connections).toBe(0);
  });

  it('closes its kept-alive connections on close()', async () => {
    const target = await receiver();
    const sender = createNodeWebhookTransport({ allowInsecure: true });
    expect((await sender.send(delivery(`${target.origin}/hook`))).ok).toBe(true);
    sender.close();
    await target.allConnectionsClosed();
    expect(target.connections).toBe(1);
  });

  describe('the development flag', () => {
    it('refuses http:// and loopback when allowInsecure is off (the default)', async () => {
      const target = await receiver();
      const outcome = await transport({ allowInsecure: false }).send(delivery(`${target.origin}/hook`));
      expect(outcome).toMatchObject({ ok: false, status: null });
      expect(outcome.error).toMatch(/^target refused: .*only https is accepted/);
      expect(target.connections).toBe(0);
    });

    it('allows an http:// receiver whose name resolves to loopback when on, connecting to the checked address', async () => {
      const target = await receiver();
      const asked: string[] = [];
      const lookup = async (hostname: string): Promise<LookupAddress[]> => {
        asked.push(hostname);
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const outcome = await transport({ lookup }).send(delivery(`http://receiver.dev.example.com:${target.port}/h`));
      expect(outcome).toMatchObject({ ok: true, status: 204, error: null });
      expect(asked).toEqual(['receiver.dev.example.com']);
      expect(target.requests[0]?.headers.host).toBe(`receiver.dev.example.com:${target.port}`);
    });
  });
});
