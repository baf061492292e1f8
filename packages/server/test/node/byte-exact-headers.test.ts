/**
 * Every response header goes out as the bytes it holds, whatever the body (a string, bytes,
 * a stream, none): Node wrote the header block in a string body's encoding, so a header byte
 * past 0x7f (an `Idempotency-Key` echoed back) left UTF-8 encoded, `c3 a9` as `c3 83 c2 a9`.
 * Read back from a raw socket and compared byte for byte (docs/decisions/0005-bad-input.md,
 * "Listener edges").
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHttpServer } from '../../src/node/api-http-server.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { exchangeBytes, headerBytes, parseAnswer } from './raw-bytes.ts';

/** `é` as UTF-8: two bytes past 0x7f, which Node reads as the two characters `Ã©`. */
const keyBytes = Buffer.from([0x6b, 0x2d, 0xc3, 0xa9]);

describe('the reference server', () => {
  let server: RunningServer;
  let apiKey: string;
  const store = createMemoryStore();

  beforeAll(async () => {
    apiKey = (await seedDemoOrganization(store, { name: 'Header bytes' })).apiKey;
    server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const createCampaign = () => {
    const body = '{"name":"Keyed by bytes"}';
    return Buffer.concat([
      Buffer.from(
        `POST /v1/campaigns HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${apiKey}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: `,
        'latin1',
      ),
      keyBytes,
      Buffer.from(`\r\n\r\n${body}`, 'latin1'),
    ]);
  };

  it('echoes an Idempotency-Key holding bytes past 0x7f exactly, first answer and replay', async () => {
    const first = parseAnswer(await exchangeBytes(server.url, createCampaign()));
    expect(first.status).toBe(201);
    expect(headerBytes(first, 'Idempotency-Key')?.toString('hex')).toBe(keyBytes.toString('hex'));

    const replay = parseAnswer(await exchangeBytes(server.url, createCampaign()));
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(headerBytes(replay, 'Idempotency-Key')?.toString('hex')).toBe(keyBytes.toString('hex'));
    expect(replay.body.equals(first.body)).toBe(true);
  });
});

describe('the listener, for every kind of body', () => {
  /** Latin1 characters standing for the bytes `c3 a9 ff 80`. */
  const value = '\u00c3\u00a9\u00ff\u0080';
  const bodies: Record<string, () => BodyInit | null> = {
    string: () => 'plain text é',
    bytes: () => new TextEncoder().encode('bytes é'),
    // A stream the adapter cannot read at once: the head is flushed on its own (`flushHeaders`).
    stream: () =>
      new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          controller.enqueue(new TextEncoder().encode('streamed é'));
          controller.close();
        },
      }),
    none: () => null,
  };
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createApiHttpServer(
      (request) => {
        const kind = new URL(request.url).pathname.slice(1);
        return new Response(bodies[kind]?.() ?? null, { headers: { 'X-Bytes': value } });
      },
      {
        answerHalfClosedClients: true,
        rateLimiter: { untouched: () => ({ limit: 100, remaining: 100, reset: 0 }) },
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the header bytes as they are, whatever the body', async () => {
    const expected = { string: 'plain text é', bytes: 'bytes é', stream: 'streamed é', none: '' };
    for (const [kind, body] of Object.entries(expected)) {
      const answer = parseAnswer(
        await exchangeBytes(url, Buffer.from(`GET /${kind} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)),
      );
      expect(answer.status, kind).toBe(200);
      expect(headerBytes(answer, 'X-Bytes')?.toString('hex'), kind).toBe('c3a9ff80');
      // The body keeps its own encoding, UTF-8.
      expect(answer.body.toString('utf8'), kind).toBe(body);
    }
  });
});
