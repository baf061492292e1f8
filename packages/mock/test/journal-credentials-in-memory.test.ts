/**
 * The standalone mock's journal keeps a request's header lines until its entry is first read
 * (journal.ts, `recordHeaderLines`); it keeps them with their credentials redacted, as it keeps
 * an in-process request's headers. Before, a slot held Node's own array with the raw values
 * for as long as the entry went unread (up to a thousand requests): a heap snapshot of the
 * test process showed them. This takes one, after the request has ended and with its entry
 * never read, and looks for the credentials in it.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { getHeapSnapshot } from 'node:v8';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { redactedHeaderLines } from '../src/core/journal/redact.ts';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 7 });
});
afterAll(() => server?.close());

/**
 * A GET of `path` sent by another process, with `headers` given on its standard input: the
 * headers' values are then in no object of this one (a client here, or the arguments of a
 * child, would hold them).
 */
const client = `
  let input = '';
  process.stdin.on('data', (chunk) => (input += chunk));
  process.stdin.on('end', () => {
    const { url, headers } = JSON.parse(input);
    require('node:http').get(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => process.stdout.write(String(response.statusCode)));
    });
  });
`;

function send(path: string, headers: () => Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', client], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin?.end(JSON.stringify({ url: `${server.url}${path}`, headers: headers() }));
  });
}

/**
 * The secrets' values as the request sends them, made by `send` and not in the test: a
 * suspended async function keeps its temporaries (in its generator's registers), where the
 * snapshot would find them.
 */
const credentialHeaders = (apiKey: string, proxySecret: string, cookieSecret: string, traced: string) => ({
  Authorization: `Bearer ${apiKey}`,
  'X-Trace': reversed(traced),
  'Proxy-Authorization': `Basic ${reversed(proxySecret)}`,
  Cookie: `session=${reversed(cookieSecret)}`,
});

/** Which of `needles` the heap snapshot holds the bytes of (read as a stream: it is large). */
async function heldInSnapshot(needles: Buffer[]): Promise<boolean[]> {
  const held = needles.map(() => false);
  const overlap = Math.max(...needles.map((needle) => needle.length));
  let tail = Buffer.alloc(0);
  for await (const chunk of getHeapSnapshot()) {
    const bytes = Buffer.concat([tail, chunk as Buffer]);
    needles.forEach((needle, i) => (held[i] ||= bytes.includes(needle)));
    tail = bytes.subarray(-overlap);
  }
  return held;
}

const reversed = (text: string) => [...text].reverse().join('');
/** The bytes of a secret the test holds reversed, made without leaving its text in this frame. */
const needle = (hidden: string) => Buffer.from(reversed(hidden));

it('keeps no credential of an unread entry in memory', { timeout: 60_000 }, async () => {
  // The test holds the secrets only reversed: the values sent are made by `credentialHeaders`.
  const proxySecret = reversed(randomUUID().replaceAll('-', ''));
  const cookieSecret = reversed(randomUUID().replaceAll('-', ''));
  const traced = reversed(randomUUID().replaceAll('-', ''));
  const sent = send('/campaigns?limit=1', () => credentialHeaders(server.apiKey, proxySecret, cookieSecret, traced));
  expect(await sent).toBe('200');
  // `X-Trace`, which the journal keeps as it is, is the control: the search finds what is held.
  const [proxy, cookie, trace] = await heldInSnapshot([needle(proxySecret), needle(cookieSecret), needle(traced)]);
  expect({ proxy, cookie, trace }).toEqual({ proxy: false, cookie: false, trace: true });
  // The entry still shows how the request authenticated.
  expect(server.requests.last('listCampaigns')?.headers['proxy-authorization']).toBe('Basic [redacted]');
});

it('redacts the lines of credentials whatever their case, and returns lines without any as they are', () => {
  const plain = ['Host', 'h', 'X-Trace', 'a'];
  expect(redactedHeaderLines(plain)).toBe(plain);
  const lines = ['authorization', 'Bearer k', 'COOKIE', 's=1', 'Proxy-Authorization', 'Basic x', 'X-Cookie', 'v'];
  expect(redactedHeaderLines(lines)).toEqual([
    'authorization',
    'Bearer [redacted]',
    'COOKIE',
    '[redacted]',
    'Proxy-Authorization',
    'Basic [redacted]',
    'X-Cookie',
    'v',
  ]);
  expect(lines[1]).toBe('Bearer k');
});
