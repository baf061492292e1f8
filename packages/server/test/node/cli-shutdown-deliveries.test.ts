/**
 * A stopping `serve` does not wait for a webhook receiver that never answers (it would wait
 * the 75 seconds section 6 gives a receiver): at the end of the shutdown grace
 * (`OCS_SHUTDOWN_GRACE_MS`) the attempt in flight is cut short through the transport's
 * AbortSignal and handed back: the delivery is pending, its attempt not counted and nothing
 * recorded of it, and the next start delivers it, as attempt 1 again, with the same bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { openStore } from '../../src/node/open-store.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';
import { type LoopbackReceiver, startLoopbackReceiver } from '../support/loopback-receiver.ts';
import { requireBuild, runCli, type Serving, startServe, stopAll } from './processes.ts';

beforeAll(requireBuild);

let dataDir: string;
let receiver: LoopbackReceiver | undefined;
/** Requests the receiver holds without answering, ended when the test ends. */
const held: ServerResponse[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-shutdown-deliveries-'));
});
afterEach(async () => {
  await stopAll();
  for (const response of held.splice(0)) response.destroy();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The exit code, or 'still running' after 20 s: far less than the 75 s a receiver may take. */
function exitOf(serving: Serving): Promise<number | null | 'still running'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), 20_000);
    serving.child.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Waits (up to 30 s) until `check` holds. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface ListedDelivery {
  id: string;
  status: string;
  attempts_made: number;
  next_attempt_at: string | null;
  last_error: string | null;
  attempts: Array<{ attempt: number; ok: boolean }>;
}

async function listDeliveries(campaignId: string): Promise<ListedDelivery[]> {
  const listed = await runCli(['deliveries', 'list', '--campaign', campaignId, '--data-dir', dataDir, '--json']);
  expect(listed).toMatchObject({ code: 0, stderr: '' });
  return (JSON.parse(listed.stdout) as { items: ListedDelivery[] }).items;
}

it(
  'SIGTERM cuts a delivery to a silent receiver short at the grace, and the next start delivers it',
  { timeout: 180_000 },
  async () => {
    let answering = false;
    const silent = startLoopbackReceiver((_request, response) => {
      if (answering) response.writeHead(204).end();
      else held.push(response);
    });
    receiver = await silent;

    // A pending delivery, due now, to a webhook on the receiver: the server sends it at start.
    const store = await openStore({ dataDir });
    const fixtures = await deliveryFixtures(store);
    await fixtures.webhook({ url: `${receiver.origin}/hook` });
    const now = new Date().toISOString();
    const delivery = await fixtures.enqueue({ created_at: now, next_attempt_at: now });
    await store.close();

    const args = ['--data-dir', dataDir, '--port', '0', '--allow-insecure-webhooks'];
    const first = await startServe(args, { env: { OCS_SHUTDOWN_GRACE_MS: '300' } });
    await until('the attempt reached the receiver', () => receiver?.requests.length === 1);

    const exited = exitOf(first);
    process.kill(first.pid, 'SIGTERM');
    expect(await exited).toBe(0);

    const [cut] = await listDeliveries(fixtures.campaign.id);
    expect(cut).toMatchObject({ id: delivery.id, status: 'pending', attempts_made: 0, attempts: [] });
    expect(cut?.last_error).toMatch(/cut short when the server stopped/);
    expect(Date.parse(cut?.next_attempt_at ?? '')).toBeLessThanOrEqual(Date.now());

    answering = true;
    const second = await startServe(args);
    await until('the delivery was made after the restart', () => receiver?.requests.length === 2);
    expect(await second.stop()).toBe(0);

    const [delivered] = await listDeliveries(fixtures.campaign.id);
    expect(delivered).toMatchObject({ id: delivery.id, status: 'delivered', attempts_made: 1 });
    expect(delivered?.attempts).toMatchObject([{ attempt: 1, ok: true }]);
    const [cutRequest, madeRequest] = receiver.requests;
    // The attempt cut short is made again: the same number, the same bytes.
    expect(madeRequest?.headers['x-ocs-delivery-attempt']).toBe('1');
    expect(cutRequest?.headers['x-ocs-delivery-attempt']).toBe('1');
    expect(madeRequest?.body.equals(cutRequest?.body ?? Buffer.alloc(0))).toBe(true);
  },
);
