/**
 * A HEAD answer from `ocs-mock` is the reference server's: the GET's status and headers, no
 * body, and no `Content-Length` (one may only carry the GET's length). Before, the mock sent
 * `Content-Length: 0` on every HEAD answer of `/v1` (the journal's copy of the answer, an
 * empty text), and the docs page's length on `/docs`, found by an attack (2026-11-29). Both
 * servers run in process here, each on a socket read byte for byte.
 */
import { connect } from 'node:net';
import { createMemoryStore, seedDemoOrganization } from '@ocs/server';
import { type RunningServer, serve } from '@ocs/server/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Map<string, string>;
  /** What followed the header block until the server closed the socket. */
  rest: string;
}

/** Sends `request` (with `Connection: close`) and reads everything until the server closes. */
function exchange(origin: string, request: string): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('no close within 5 s')));
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no answer: ${JSON.stringify(received)}`));
      const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, rest: received.slice(end + 4) });
    });
  });
}

const request = (method: string, path: string, key: string | null) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${key ? `Authorization: Bearer ${key}\r\n` : ''}Connection: close\r\n\r\n`;

/** The GET's and the HEAD's answers to `path`. */
async function both(origin: string, path: string, key: string | null) {
  return {
    get: await exchange(origin, request('GET', path, key)),
    head: await exchange(origin, request('HEAD', path, key)),
  };
}

/** The rule for any server: the GET's status, no body, and the GET's length or none. */
function expectHeadOfGet({ get, head }: { get: Answer; head: Answer }, label: string): void {
  expect(head.status, label).toBe(get.status);
  expect(head.rest, label).toBe('');
  const length = head.headers.get('content-length');
  if (length !== undefined) expect(length, label).toBe(get.headers.get('content-length'));
}

let mock: MockServer;
let mockOrigin: string;
let reference: RunningServer;
let referenceKey: string;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 14 });
  mockOrigin = mock.url.replace(/\/v1$/, '');
  const store = createMemoryStore();
  referenceKey = (await seedDemoOrganization(store, { name: 'HEAD answers' })).apiKey;
  reference = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
});
afterAll(async () => {
  await mock?.close();
  await reference?.close();
});
beforeEach(() => mock.reset());

const cases: Array<[label: string, path: string, keyed: boolean]> = [
  ['a list', '/v1/campaigns', true],
  ['no key (401)', '/v1/campaigns', false],
  ['an unknown campaign (404)', '/v1/campaigns/00000000-0000-4000-8000-000000000000', true],
  ['no such route (404)', '/v1/nope', true],
  ['the key check', '/v1/auth/verify', true],
  ['the document, outside /v1', '/openapi.json', false],
  ['the docs page', '/docs', false],
];

describe('HEAD, on ocs-mock as on the reference server', () => {
  it.each(cases)('%s: the GET’s status, no body, and no Content-Length on either', async (label, path, keyed) => {
    const onMock = await both(mockOrigin, path, keyed ? mock.apiKey : null);
    const onReference = await both(reference.url, path, keyed ? referenceKey : null);
    expectHeadOfGet(onMock, `ocs-mock ${label}`);
    expectHeadOfGet(onReference, `reference ${label}`);
    expect(onMock.head.status).toBe(onReference.head.status);
    expect(onReference.head.headers.has('content-length'), `reference ${label}`).toBe(false);
    expect(onMock.head.headers.has('content-length'), `ocs-mock ${label}`).toBe(false);
    // The answer is the GET's otherwise: its type and request ID are there.
    expect(onMock.head.headers.get('content-type')).toBe(onMock.get.headers.get('content-type'));
  });

  it('under scenarios too: an answer of the mock’s own (unavailable), and added latency', async () => {
    mock.scenarios.unavailable({ times: 2 });
    const failed = await both(mockOrigin, '/v1/campaigns', mock.apiKey);
    expect(failed.head.status).toBe(503);
    expectHeadOfGet(failed, 'a failure scenario');
    expect(failed.head.headers.has('content-length')).toBe(false);

    mock.scenarios.latency(20);
    const slow = await both(mockOrigin, '/v1/campaigns', mock.apiKey);
    expectHeadOfGet(slow, 'latency');
    expect(slow.head.headers.has('content-length')).toBe(false);
  });

  it('the journal still records the HEAD and its answer', async () => {
    await exchange(mockOrigin, request('HEAD', '/v1/campaigns', mock.apiKey));
    expect(mock.requests.all().at(-1)).toMatchObject({
      method: 'HEAD',
      path: '/v1/campaigns',
      response: { status: 200 },
    });
  });
});
