/**
 * Registration resolves the webhook's host when DNS is at hand (the Node server): a name
 * that resolves to a non-public address is refused at once with `400 INVALID_WEBHOOK_URL`,
 * not only later at every delivery. A name that does not resolve now is accepted (the
 * connect-time guard checks every delivery anyway).
 */
import type { LookupAddress } from 'node:dns';
import { beforeEach, expect, it } from 'vitest';
import { webhookHostCheck } from '../../src/node/connect-guard.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createCampaign } from '../support/campaign-setup.ts';

const answers: Record<string, LookupAddress[]> = {
  'hooks.example.com': [{ address: '93.184.216.34', family: 4 }],
  'internal.example.com': [{ address: '10.0.0.7', family: 4 }],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.216.34', family: 4 },
    { address: '::1', family: 6 },
  ],
};
const asked: string[] = [];
const resolve = async (hostname: string) => {
  asked.push(hostname);
  const found = answers[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

let api: TestApi;
let campaignId: string;

beforeEach(async () => {
  asked.length = 0;
  api = await createTestApi(createMemoryStore(), { checkWebhookHost: webhookHostCheck(resolve) });
  campaignId = await createCampaign(api);
});

const register = (url: string) =>
  api.call<{ error?: string; message?: string }>('POST', `/v1/campaigns/${campaignId}/webhooks`, {
    body: { webhook_url: url, replace: true },
  });

it.each([
  ['https://internal.example.com/ocs', '10.0.0.7'],
  ['https://metadata.example.com/ocs', '169.254.169.254'],
  ['https://mixed.example.com/ocs', '::1'],
])('refuses %s, which resolves to %s', async (url, address) => {
  const answer = await register(url);
  expect([answer.status, answer.body.error]).toEqual([400, 'INVALID_WEBHOOK_URL']);
  expect(answer.body.message).toContain(address);
});

it('accepts a public name, and a name that does not resolve now', async () => {
  expect((await register('https://hooks.example.com/ocs')).status).toBe(201);
  expect((await register('https://not-yet-published.example.com/ocs')).status).toBe(200);
  expect(asked).toEqual(['hooks.example.com', 'not-yet-published.example.com']);
});

it('does not resolve IP literals (the URL check decided them)', async () => {
  expect((await register('https://93.184.216.34/ocs')).status).toBe(201);
  expect((await register('https://[2606:2800:220:1:248:1893:25c8:1946]/ocs')).status).toBe(200);
  expect(asked).toEqual([]);
});
