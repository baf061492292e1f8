/**
 * The base URL: with or without `/v1`, behind a path prefix (an integrator's own proxy
 * route), and the mock used without MSW through `mock.fetch`.
 */
import { createClient, getCampaign, listCampaigns } from '@ocs/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOcsMock, defaultBaseUrl } from '../src/node/index.ts';

const prefixed = await createOcsMock({ baseUrl: 'http://localhost:3000/api/ocs' });
const server = setupServer(...prefixed.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('appends /v1 and answers behind a path prefix, overrides included', async () => {
  expect(prefixed.baseUrl).toBe('http://localhost:3000/api/ocs/v1');
  const client = createClient({ apiKey: prefixed.apiKey, baseUrl: prefixed.baseUrl });
  expect((await listCampaigns(client)).total).toBe(3);
  const campaign_id = prefixed.data.campaigns[0]?.id ?? '';
  const created = await client.POST('/campaigns', { body: { name: 'Behind a proxy', description: '' } });
  expect(created.response.status).toBe(201);

  prefixed.use(
    prefixed.http.get('/campaigns/{campaign_id}', ({ params, response }) =>
      response(404).json({
        success: false,
        error: 'CAMPAIGN_NOT_FOUND',
        message: `Campaign ${params.campaign_id} not found.`,
        request_id: 'req_prefixed',
      }),
    ),
  );
  await expect(getCampaign(client, { campaign_id })).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
  prefixed.reset();
  expect((await getCampaign(client, { campaign_id })).campaign.id).toBe(campaign_id);
});

it('works without MSW through mock.fetch, and refuses a relative base URL', async () => {
  const mock = await createOcsMock({ baseUrl: 'https://api.example.com/v1/' });
  expect(mock.baseUrl).toBe('https://api.example.com/v1');
  const client = createClient({
    apiKey: mock.apiKey,
    baseUrl: mock.baseUrl,
    fetch: (input, init) => mock.fetch(new Request(input, init)),
  });
  expect((await listCampaigns(client)).campaigns).toHaveLength(3);
  await expect(createOcsMock({ baseUrl: '/v1' })).rejects.toThrow(/baseUrl must be an absolute URL/);
  expect(defaultBaseUrl).toBe('https://api.ocs.test/v1');
});
