/**
 * Happy paths against Prism serving the document's examples under /v1: the named
 * operations and the typed path API agree with the document, and every result carries its
 * request ID and rate-limit state.
 */
import { startPrism, type PrismMock } from '@ocs/mock/prism';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCampaign,
  createClient,
  createOcs,
  getCampaign,
  getCampaignAnalysis,
  listCampaigns,
  listLeads,
  paginate,
  updateSequenceStep,
  verifyAuth,
  type OcsClient,
} from '../src/index.ts';

const q4 = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
let mock: PrismMock;
let client: OcsClient;

beforeAll(async () => {
  mock = await startPrism({ port: 0 });
  client = createClient({ apiKey: 'ocs_prism_test', baseUrl: mock.url });
}, 60_000);
afterAll(() => mock?.close());

describe('named operations', () => {
  it('verifyAuth', async () => {
    const result = await verifyAuth(client);
    expect(result.organization.name).toBe('Northwind Outreach');
    expect(result.requestId).toMatch(/^[A-Za-z0-9._:-]+$/);
  });

  it('getCampaign', async () => {
    const result = await getCampaign(client, { campaign_id: q4 });
    expect(result.campaign.name).toBe('Q4 Founders Outreach');
    expect(result.status).toBe(200);
    expect(result.requestId).toBe('req_5f2c9a7e1b3d4f60a8c2e9b1');
    expect(result.rateLimit).toEqual({ limit: 100, remaining: 97, reset: 42, retryAfter: undefined });
    expect(client.rateLimit?.limit).toBe(100);
  });

  it('getCampaignAnalysis with query parameters', async () => {
    const result = await getCampaignAnalysis(client, { campaign_id: q4, date_filter: '30d', variation: 'all' });
    expect(result.campaign_id).toBe(q4);
    expect(result.analysis?.funnel).toBeDefined();
  });

  it('createCampaign with a generated Idempotency-Key', async () => {
    const result = await createCampaign(client, { name: 'Fintech CFOs', description: 'CFOs at Series B+ fintechs' });
    expect(result.status).toBe(201);
    expect(result.campaign_id).toBe('0e5a9c3f-7b1d-4f6a-9e2c-8d4b1a7f3e60');
    expect(result.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('updateSequenceStep: path parameters and body in one params object', async () => {
    const result = await updateSequenceStep(client, { campaign_id: q4, step_id: 1, updates: { delay: 2 } });
    expect(result.campaign_id).toBe(q4);
  });

  it('listLeads and its paginator', async () => {
    const page = await listLeads(client, { limit: 20 });
    expect(page.leads.length).toBe(page.count);
    const emails: (string | null)[] = [];
    for await (const lead of paginate(client, listLeads, {}, { pageSize: 20, maxItems: 10 })) emails.push(lead.email);
    expect(emails).toContain('maya.patel@acmerobotics.com');
  });

  it('createOcs methods', async () => {
    const ocs = createOcs(client);
    const { campaigns } = await ocs.listCampaigns({ is_active: true });
    expect(campaigns.map((campaign) => campaign.name)).toContain('Q4 Founders Outreach');
    const all = await ocs.paginate.listCampaigns().toArray({ limit: 100 });
    expect(all.length).toBeGreaterThan(0);
    expect(await listCampaigns(client)).toEqual(await ocs.listCampaigns());
  });
});

describe('path API', () => {
  it("keeps openapi-fetch's { data, error, response }", async () => {
    const { data, error, response } = await client.GET('/campaigns/{campaign_id}', {
      params: { path: { campaign_id: q4 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.campaign.id).toBe(q4);
  });

  it('answers an error as { error } without throwing', async () => {
    const { data, error, response } = await client.POST('/campaigns', {
      // @ts-expect-error name is required by the document
      body: { description: 'no name' },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toBeDefined();
  });
});
