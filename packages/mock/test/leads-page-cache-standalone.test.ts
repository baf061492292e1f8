/**
 * The kept leads page on `ocs-mock`'s socket (leads-page-cache.test.ts has the rest): a lead
 * created shows at once, and the control route's reset gives the seeded page back.
 */
import { createClient, createLead, listLeads } from '@ocs/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../src/node/index.ts';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, seed: 5 });
});
afterAll(() => server?.close());
const client = () => createClient({ apiKey: server.apiKey, baseUrl: server.url, maxRetries: 0 });
const firstPage = () => listLeads(client(), { limit: 20 });

it('shows a new lead at once, and the seeded page after POST /__ocs-mock/reset', async () => {
  const seeded = await firstPage();
  expect(await firstPage()).toEqual(seeded);
  await createLead(client(), { email: 'over.http@example.com' });
  const changed = await firstPage();
  expect(changed.leads[0]?.email).toBe('over.http@example.com');
  expect(changed.total).toBe(seeded.total + 1);

  const reset = await fetch(new URL('/__ocs-mock/reset', server.url), { method: 'POST' });
  expect(reset.status).toBe(204);
  expect(await firstPage()).toEqual(seeded);
});
