/**
 * What an integrator's contract test looks like with the Prism mock: requests are checked
 * against the document, answers are the document's examples, typed with @ocs/sdk's types.
 */
import { startPrism } from '@ocs/mock/prism';
import type { components } from '@ocs/sdk/types';
import { afterAll, beforeAll, expect, it } from 'vitest';

type CampaignPage = components['schemas']['PageEnvelope'] & { campaigns: components['schemas']['Campaign'][] };

let mock: Awaited<ReturnType<typeof startPrism>>;
beforeAll(async () => {
  mock = await startPrism({ port: 0 });
}, 60_000);
afterAll(() => mock.close());

const auth = { Authorization: 'Bearer ocs_example_key' };

it('lists campaigns with the documented envelope', async () => {
  const response = await fetch(`${mock.url}/campaigns?limit=10`, { headers: auth });
  expect(response.status).toBe(200);
  const page = (await response.json()) as CampaignPage;
  expect(page.has_more).toBe(false);
  expect(page.campaigns.map((c) => c.name)).toContain('Q4 Founders Outreach');
});

it('refuses a request without the bearer key, as the document says', async () => {
  const response = await fetch(`${mock.url}/campaigns`);
  expect(response.status).toBe(401);
  expect(await response.json()).toMatchObject({ success: false, error: 'UNAUTHORIZED' });
});

it('validates request bodies against the document', async () => {
  const response = await fetch(`${mock.url}/campaigns`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ description: 'no name' }),
  });
  expect(response.status).toBe(400);
});
