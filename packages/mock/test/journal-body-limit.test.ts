/**
 * The journal reads no more of a request body than the API accepts (1 MB, the application's
 * `413 PAYLOAD_TOO_LARGE`): a body declared over it is not read, a streamed one is read no
 * further than it, and the entry says the body was not kept. The application's early 413
 * (from `Content-Length`, before the body is sent) reaches the client with the journal on,
 * in process and over HTTP.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcsMock, type MockServer, startMockServer } from '../src/node/index.ts';

/** The API's body limit (`maxBodyBytes` of the server's http/body.ts). */
const limit = 1024 * 1024;
/** What an entry's `body` says of a body over the limit (README, "Request journal"). */
const notKept = '[not kept: over the 1 MB body limit]';

/** A JSON body of exactly `bytes` bytes (ASCII). */
const bodyOf = (bytes: number) => `{"name":"${'x'.repeat(bytes - 11)}"}`;

/** A body of `total` bytes made as it is read, counting the bytes read from it. */
function countedBody(total: number, chunk = 64 * 1024) {
  const counter = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= total) return controller.close();
      counter.pulled += chunk;
      controller.enqueue(new Uint8Array(chunk).fill(0x78));
    },
  });
  return { stream, counter };
}

/** A POST of a streamed body (`duplex` is Node's, not in the DOM's `RequestInit`). */
const streamed = (url: string, headers: Record<string, string>, body: ReadableStream<Uint8Array>) =>
  new Request(url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);

const mock = await createOcsMock({ seed: 3 });

describe('in process', () => {
  const headers = { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' };
  const url = `${mock.baseUrl}/campaigns`;

  it('keeps a body of exactly the limit; one byte more is refused 413 and not kept', async () => {
    const at = await mock.fetch(url, { method: 'POST', headers, body: bodyOf(limit) });
    expect(at.status).not.toBe(413);
    expect(mock.requests.last('createCampaign')?.body?.name).toHaveLength(limit - 11);
    const over = await mock.fetch(url, { method: 'POST', headers, body: bodyOf(limit + 1) });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
    expect(mock.requests.last('createCampaign')).toMatchObject({ body: notKept, response: { status: 413 } });
  });

  it('holds nothing of a 20 MB body refused 413', async () => {
    const response = await mock.fetch(url, { method: 'POST', headers, body: bodyOf(20_000_000) });
    expect(response.status).toBe(413);
    expect(mock.requests.last('createCampaign')?.body).toBe(notKept);
    expect(JSON.stringify(mock.requests.last('createCampaign')).length).toBeLessThan(10_000);
  });

  it('reads a streamed body no further than the limit', async () => {
    const { stream, counter } = countedBody(50 * limit);
    const response = await mock.fetch(streamed(url, headers, stream));
    expect(response.status).toBe(413);
    expect(mock.requests.last('createCampaign')?.body).toBe(notKept);
    // The journal's copy and the application's share the stream: each stops at the limit.
    expect(counter.pulled).toBeLessThanOrEqual(limit + 4 * 64 * 1024);
  });

  it('reads nothing of a body declared over the limit', async () => {
    const { stream, counter } = countedBody(50 * limit);
    const declared = { ...headers, 'Content-Length': String(50 * limit) };
    const response = await mock.fetch(streamed(url, declared, stream));
    expect(response.status).toBe(413);
    expect(mock.requests.last('createCampaign')?.body).toBe(notKept);
    // A stream fills its queue once when made (one chunk); nobody reads it.
    expect(counter.pulled).toBeLessThanOrEqual(64 * 1024);
  });
});

describe('ocs-mock over HTTP', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, seed: 3 });
  });
  afterAll(() => server?.close());

  /** Sends `head` on a new connection; resolves with the first bytes answered. */
  function answerTo(head: string, keepSending?: (socket: Socket) => void): Promise<{ answer: string; sent: number }> {
    const { hostname, port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const state = { sent: 0 };
      socket.once('data', (data) => {
        resolve({ answer: data.toString('latin1'), sent: state.sent });
        socket.destroy();
      });
      socket.on('error', reject);
      socket.write(head, () => keepSending?.(Object.assign(socket, { state })));
    });
  }

  const head = (framing: string) =>
    `POST /v1/campaigns HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nAuthorization: Bearer ${server.apiKey}\r\n` +
    `Content-Type: application/json\r\n${framing}\r\n\r\n`;

  it('answers 413 to a body declared over the limit before it is sent, and keeps none of it', async () => {
    // Only the headers and a few bytes are sent: the answer comes from Content-Length.
    const { answer } = await answerTo(`${head(`Content-Length: ${100_000_000}`)}{"name":"`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('PAYLOAD_TOO_LARGE');
    const origin = server.url.replace(/\/v1$/, '');
    const listed = await fetch(`${origin}/__ocs-mock/requests?operation=createCampaign`);
    const text = await listed.text();
    expect(text.length).toBeLessThan(limit);
    expect((JSON.parse(text) as { requests: Array<{ body: unknown }> }).requests.at(-1)?.body).toBe(notKept);
  });

  it('answers 413 to a chunked body once it passes the limit, without reading the rest', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const cap = 64 * limit;
    const { answer, sent } = await answerTo(head('Transfer-Encoding: chunked'), (socket) => {
      const state = (socket as Socket & { state: { sent: number } }).state;
      const more = () => {
        // Stops at `cap` without ending the body: only a server that stops reading answers.
        while (!socket.destroyed && state.sent < cap) {
          state.sent += chunk.length;
          if (!socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)) return void socket.once('drain', more);
        }
      };
      more();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(cap);
    expect(server.requests.last('createCampaign')?.body).toBe(notKept);
  });
});
