/**
 * The relay `ocs listen` registers (src/cli/relay.ts) is on loopback, where any process of the
 * machine can call it: what is not a signed delivery to its own path is refused before its
 * body is read, and a delivery over 1 MiB is refused as it shows (it read any body whole:
 * 1.5 GB sent to another path held 4.7 GB).
 */
import { createServer, type Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Relay, startRelay } from '../src/cli/relay.ts';

let relay: Relay;
let receiver: Server;
const refused: string[] = [];

beforeAll(async () => {
  receiver = createServer((_, response) => response.writeHead(200).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  relay = await startRelay({
    secret: 'whsec_relay_test_0123456789',
    forwardTo: `http://127.0.0.1:${port}/hooks`,
    onForwarded: () => undefined,
    onRefused: (reason) => refused.push(reason),
  });
});
afterAll(async () => {
  await relay?.close();
  receiver?.close();
});

/**
 * POSTs to `url` a body that never ends (chunked), and resolves with the status and how many
 * bytes were written before it came: a relay that read the body would never answer.
 */
function endlessPost(url: string, headers: Record<string, string> = {}): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = false;
    const outgoing = request(url, { method: 'POST', headers }, (response) => {
      done = true;
      response.resume();
      resolve({ status: response.statusCode ?? 0, sent });
      outgoing.destroy();
    });
    outgoing.on('error', (error) => (done ? undefined : reject(error)));
    const chunk = Buffer.alloc(64 * 1024);
    const write = () => {
      while (!done && sent < 64 * 1024 * 1024) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) return void outgoing.once('drain', write);
      }
    };
    write();
  });
}

it('answers another path and an unsigned delivery without reading their bodies', async () => {
  const origin = new URL(relay.url).origin;
  const other = await endlessPost(`${origin}/elsewhere`);
  expect(other.status).toBe(404);
  const unsigned = await endlessPost(relay.url);
  expect(unsigned.status).toBe(401);
  // Answered long before 64 MiB were sent.
  expect(other.sent).toBeLessThan(64 * 1024 * 1024);
  expect(unsigned.sent).toBeLessThan(64 * 1024 * 1024);
});

it('refuses a signed delivery over 1 MiB as it shows, announced or not', async () => {
  const signed = { 'x-signature-256': `sha256=${'0'.repeat(64)}` };
  const endless = await endlessPost(relay.url, signed);
  expect(endless.status).toBe(413);
  expect(endless.sent).toBeLessThan(64 * 1024 * 1024);
  expect(refused.at(-1)).toMatch(/more than 1048576 bytes/);
});
