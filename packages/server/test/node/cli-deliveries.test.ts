/**
 * `ocs-server deliveries list`: the operator sees every `prospect_response` delivery of a
 * campaign and each attempt (time, status, duration, error), on the store the server uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { main } from '../../src/node/cli.ts';
import { openStore } from '../../src/node/open-store.ts';
import { at, deliveryFixtures, lease, minutes } from '../support/delivery-fixtures.ts';

let dataDir: string;
let printed: string[];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-cli-'));
  printed = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dataDir, { recursive: true, force: true });
});

it('lists a campaign’s deliveries with every attempt, for people and as JSON', async () => {
  const store = await openStore({ dataDir });
  const f = await deliveryFixtures(store);
  const webhook = await f.webhook();
  const delivery = await f.enqueue();
  await store.deliveries.claimDue({ ...lease(0), limit: 10, workerId: 'w1' });
  await store.deliveries.completeAttempts([
    {
      delivery_id: delivery.id,
      worker_id: 'w1',
      attempt: 1,
      outcome: { status: 'pending', at: at(minutes(15)) },
      attempts_made: 1,
      last_error: 'receiver answered 503',
      attempts: [
        {
          delivery_id: delivery.id,
          attempt: 1,
          webhook_id: webhook.id,
          url: webhook.url,
          started_at: at(0),
          ok: false,
          status: 503,
          duration_ms: 41.7,
          error: 'receiver answered 503',
        },
      ],
    },
  ]);
  await store.close();

  expect(await main(['deliveries', 'list', '--campaign', f.campaign.id, '--data-dir', dataDir])).toBe(0);
  const text = printed.join('');
  expect(text).toContain(delivery.id);
  expect(text).toContain('pending');
  expect(text).toMatch(/#1 .* → failed 503 in 42 ms \(receiver answered 503\)/);

  printed = [];
  expect(await main(['deliveries', 'list', '--campaign', f.campaign.id, '--data-dir', dataDir, '--json'])).toBe(0);
  const page = JSON.parse(printed.join(''));
  expect(page.total).toBe(1);
  expect(page.items[0].attempts[0]).toMatchObject({ attempt: 1, status: 503, ok: false });
});

it('asks for the campaign', async () => {
  await expect(main(['deliveries', 'list', '--data-dir', dataDir])).rejects.toThrow(/--campaign/);
});

it('says so when no campaign has the ID, rather than "No deliveries."', async () => {
  const store = await openStore({ dataDir });
  const f = await deliveryFixtures(store);
  await store.close();
  // A campaign without deliveries is not a mistake.
  expect(await main(['deliveries', 'list', '--campaign', f.campaign.id, '--data-dir', dataDir])).toBe(0);
  expect(printed.join('')).toContain('No deliveries.');
  const unknown = '00000000-0000-4000-8000-000000000000';
  await expect(main(['deliveries', 'list', '--campaign', unknown, '--data-dir', dataDir])).rejects.toThrow(
    `no campaign ${unknown}`,
  );
});
