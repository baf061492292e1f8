/**
 * An integration written against @ocs/sdk (support/integration.ts), tested with the mock
 * in Node through MSW: what an integrator's own suite does. Every answer comes from the
 * reference server's application, so the rules are the service's.
 */
import { createHash, createHmac } from 'node:crypto';
import {
  createCampaign,
  createClient,
  createLead,
  createWebhook,
  getCampaign,
  listCampaigns,
  listLeads,
  OcsAuthenticationError,
  OcsBadRequestError,
  OcsConflictError,
  OcsNotFoundError,
  OcsPermissionDeniedError,
  OcsRateLimitError,
  replaceSenders,
  updateCampaign,
} from '@ocs/sdk';
import type { ProspectResponseEvent } from '@ocs/sdk/webhooks';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { createOcsMock } from '../src/node/index.ts';
import { campaignName, exportLeadEmails, launchCampaign, webhookReceiver } from './support/integration.ts';
import { mockedApi } from './support/setup.ts';

const { mock, server, client } = await mockedApi({ seed: 7 });

const emailSequence = {
  variation_a: [
    { id: 1, type: 'email' as const, subject: 'Hello {first_name}', content: 'About {company}...', delay: 0 },
    { id: 2, type: 'email' as const, subject: 'Re: hello', content: 'Following up.', delay: 2 },
  ],
};
const freeAccount = (platform: 'email' | 'linkedin') => {
  const account = mock.data.accounts.find(
    (a) => a.platform === platform && a.status === 'connected' && a.campaign_ids.length === 0,
  );
  if (!account) throw new Error(`no free ${platform} account in the seed`);
  return account.id;
};

describe('create, list and page', () => {
  it('launches a campaign through every rule of the service', async () => {
    const id = await launchCampaign(client(), {
      name: 'Launch test',
      sequence: emailSequence,
      senderIds: [freeAccount('email')],
      leads: [
        { email: 'ana@example.com', first_name: 'Ana', company: 'Acme' },
        { email: 'ben@example.com', first_name: 'Ben', company: 'Bolt' },
      ],
    });
    const { campaign } = await getCampaign(client(), { campaign_id: id });
    expect(campaign).toMatchObject({ name: 'Launch test', is_active: true });
    const enrolled = await listLeads(client(), { campaign_id: id });
    expect(enrolled.total).toBe(2);
    const all = await listCampaigns(client());
    expect(all.total).toBe(mock.data.campaigns.length + 1);
  });

  it('pages that add up: every lead once, the last page says there is no more', async () => {
    const emails = await exportLeadEmails(client(), 7);
    expect(emails).toHaveLength(mock.data.leads.length);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails.sort()).toEqual(mock.data.leads.map((lead) => lead.email).sort());

    const first = await listLeads(client(), { limit: 7 });
    expect(first).toMatchObject({ count: 7, total: 30, has_more: true, offset: 0 });
    const last = await listLeads(client(), { limit: 7, offset: 28 });
    expect(last).toMatchObject({ count: 2, total: 30, has_more: false });

    await createLead(client(), { email: 'new.lead@example.com', first_name: 'New' });
    expect((await listLeads(client(), { limit: 1 })).total).toBe(31);
  });
});

describe('errors in the API own body, typed', () => {
  it('a missing campaign is CAMPAIGN_NOT_FOUND (null for the integration); a malformed ID is NOT_FOUND', async () => {
    expect(await campaignName(client(), crypto.randomUUID())).toBeNull();
    expect(await campaignName(client(), mock.data.campaigns[0]?.id ?? '')).toBe('Q4 Founders Outreach');
    const error = await getCampaign(client(), { campaign_id: 'not-a-uuid' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsNotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((error as OcsNotFoundError).requestId).toMatch(/^req_/);
  });

  it('validation errors list the fields; sequence rules answer SEQUENCE_VALIDATION_FAILED', async () => {
    const empty = await createCampaign(client(), { name: '' }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(OcsBadRequestError);
    expect(empty).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((empty as OcsBadRequestError).details?.errors?.[0]?.field).toBe('body.name');

    const broken = await createCampaign(client(), {
      name: 'Broken',
      sequence: { variation_a: [{ id: 1, type: 'email', delay: 120 }] },
    }).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(OcsBadRequestError);
    expect(broken).toMatchObject({ code: 'SEQUENCE_VALIDATION_FAILED' });
  });

  it('auth, sender and activation rules', async () => {
    const stranger = createClient({ apiKey: 'ocs_unknownkey0000000000000000000000000000', baseUrl: mock.baseUrl });
    await expect(listCampaigns(stranger)).rejects.toBeInstanceOf(OcsAuthenticationError);

    const draft = mock.data.campaigns.find((c) => !c.is_active);
    if (!draft) throw new Error('the seed has a draft campaign');
    const disconnected = mock.data.accounts.find((a) => a.status !== 'connected')?.id ?? '';
    const notConnected = await replaceSenders(client(), { campaign_id: draft.id, account_ids: [disconnected] }).catch(
      (e: unknown) => e,
    );
    expect(notConnected).toBeInstanceOf(OcsConflictError);
    expect(notConnected).toMatchObject({ code: 'ACCOUNT_NOT_CONNECTED', details: { account_ids: [disconnected] } });

    const busy = mock.data.campaigns[0]?.enabled_accounts?.[0] ?? '';
    const inUse = await replaceSenders(client(), { campaign_id: draft.id, account_ids: [busy] }).catch(
      (e: unknown) => e,
    );
    expect(inUse).toMatchObject({ status: 409, code: 'ACCOUNT_IN_USE' });

    const blocked = await updateCampaign(client(), { campaign_id: draft.id, is_active: true }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(OcsConflictError);
    expect(blocked).toMatchObject({ code: 'PREFLIGHT_FAILED' });
  });

  it('a key without the scope is refused with 403 INSUFFICIENT_SCOPE; an expired key with 401', async () => {
    const readOnly = createClient({
      apiKey: await mock.createApiKey({ scopes: ['campaigns:read'] }),
      baseUrl: mock.baseUrl,
      maxRetries: 0,
    });
    expect((await listCampaigns(readOnly)).total).toBe(mock.data.campaigns.length);
    const refused = await createCampaign(readOnly, { name: 'Not allowed' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OcsPermissionDeniedError);
    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    const expired = createClient({
      apiKey: await mock.createApiKey({ expiresAt: '2020-01-01T00:00:00Z' }),
      baseUrl: mock.baseUrl,
    });
    await expect(listCampaigns(expired)).rejects.toMatchObject({ status: 401, code: 'API_KEY_EXPIRED' });
    // reset() forgets the keys it was not seeded with.
    mock.reset();
    await expect(listCampaigns(readOnly)).rejects.toBeInstanceOf(OcsAuthenticationError);
  });
});

describe('retries on 429', () => {
  it('retries a rate-limited call (scenario) and fails once the retries are spent', async () => {
    mock.scenarios.fail('listLeads', { status: 429, code: 'RATE_LIMITED', times: 2, retryAfter: 0 });
    expect(await exportLeadEmails(client(), 100)).toHaveLength(30);

    mock.scenarios.fail('listLeads', { status: 429, code: 'RATE_LIMITED', times: 3, retryAfter: 0 });
    const error = await listLeads(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsRateLimitError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 0, rateLimit: { remaining: 0 } });
  });

  it('counts the real rate limit down, answers 429 with Retry-After, and the client waits it out', async () => {
    // A second mock, without MSW: the client sends through `mock.fetch`.
    const limited = await createOcsMock({ seed: 7, rateLimits: { perEndpoint: 3, windowMs: 1000 } });
    const through = (maxRetries: number) =>
      createClient({
        apiKey: limited.apiKey,
        baseUrl: limited.baseUrl,
        maxRetries,
        fetch: (input, init) => limited.fetch(new Request(input, init)),
      });
    const campaign_id = limited.data.campaigns[0]?.id ?? '';
    const remaining: Array<number | undefined> = [];
    // Windows are whole seconds of the wall clock: start at the beginning of one, so that the
    // four requests below fall in the same window however busy the machine is.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    for (let i = 0; i < 3; i++) remaining.push((await getCampaign(through(0), { campaign_id })).rateLimit.remaining);
    expect(remaining).toEqual([2, 1, 0]);

    const refused = await getCampaign(through(0), { campaign_id }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OcsRateLimitError);
    expect((refused as OcsRateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((refused as OcsRateLimitError).message).toMatch(/Rate limit of 3 requests per second for GET/);

    const waited = await getCampaign(through(2), { campaign_id });
    expect(waited.campaign.id).toBe(campaign_id);
  });
});

describe('idempotency', () => {
  it('replays a create with the same key, refuses the key for another body, retries safely', async () => {
    const first = await createCampaign(client(), { name: 'Once' }, { idempotencyKey: 'launch-1' });
    const again = await createCampaign(client(), { name: 'Once' }, { idempotencyKey: 'launch-1' });
    expect(again.campaign_id).toBe(first.campaign_id);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');

    const reused = await createCampaign(client(), { name: 'Other' }, { idempotencyKey: 'launch-1' }).catch(
      (e: unknown) => e,
    );
    expect(reused).toBeInstanceOf(OcsConflictError);
    expect(reused).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', idempotencyKey: 'launch-1' });

    // The first attempt times out; the SDK retries with the same (generated) key.
    mock.scenarios.fail('createCampaign', { status: 503, code: 'UPSTREAM_TIMEOUT', retryAfter: 0 });
    const retried = await createCampaign(client(), { name: 'Retried' });
    expect(retried.status).toBe(201);
    const names = (await listCampaigns(client())).campaigns.map((c) => c.name);
    expect(names.filter((name) => name === 'Retried')).toHaveLength(1);
    expect(names.filter((name) => name === 'Once')).toHaveLength(1);
  });
});

describe('webhooks', () => {
  const secret = 'whsec_mock_test_0123456789';

  it('triggers a signed prospect_response that the receiver verifies with the SDK, once per key', async () => {
    const received: ProspectResponseEvent[] = [];
    const receiver = webhookReceiver(secret, (event) => received.push(event));
    const lead = mock.data.leads[0];
    const campaignId = lead?.enrolments[0]?.campaign_id ?? '';
    const { request, event, body, signature } = await mock.webhooks.trigger({ secret, leadId: lead?.id });

    expect((await receiver(request)).status).toBe(204);
    expect(received).toEqual([event]);
    expect(signature).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    expect(event).toMatchObject({
      event: 'prospect_response',
      sequence_lead_id: lead?.enrolments[0]?.sequence_lead_id,
      campaign: mock.data.campaigns.find((c) => c.id === campaignId)?.name,
      lead: { email: lead?.email, first_name: lead?.first_name },
    });
    const expectedKey = createHash('sha256')
      .update([event.sequence_lead_id, campaignId, event.channel, event.prospect_message].join('\n'))
      .digest('hex');
    expect(event.idempotency_key).toBe(expectedKey);
    expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);

    // A retry of the same event is skipped; a different reply is a new key.
    const repeat = await mock.webhooks.trigger({ secret, leadId: lead?.id });
    expect((await receiver(repeat.request)).status).toBe(204);
    expect(received).toHaveLength(1);
    const negative = await mock.webhooks.trigger({
      secret,
      leadId: lead?.id,
      overrides: { prospect_message: 'Not interested.', ai_response: { sentiment: 'negative' } },
    });
    expect(negative.event.idempotency_key).not.toBe(event.idempotency_key);
    expect(negative.event.ai_response.sentiment).toBe('negative');
    expect((await receiver(negative.request)).status).toBe(204);
    expect(received).toHaveLength(2);

    const forged = await mock.webhooks.trigger({ secret: 'someone-elses-secret', leadId: lead?.id });
    expect((await receiver(forged.request)).status).toBe(401);
  });

  it('signs with a webhook registered through the API, and delivers to its URL', async () => {
    const campaign = mock.data.campaigns[1];
    const url = 'https://hooks.northwind-outreach.com/ocs/prospect-response';
    const registered = await createWebhook(client(), { campaign_id: campaign?.id ?? '', webhook_url: url });
    const generated = registered.secret ?? '';
    expect(generated.length).toBeGreaterThanOrEqual(16);

    const received: ProspectResponseEvent[] = [];
    const receiver = webhookReceiver(generated, (event) => received.push(event));
    server.use(http.post(url, ({ request }) => receiver(request)));
    const triggered = await mock.webhooks.trigger({ secret: generated, campaignId: campaign?.id, url });
    expect(triggered.request.url).toBe(url);
    expect(triggered.response?.status).toBe(204);
    expect(received[0]?.campaign).toBe('EMEA Expansion');
    // A LinkedIn-only campaign: the reply came on LinkedIn, from its LinkedIn sender.
    expect(received[0]?.channel).toBe('linkedin');
    expect(received[0]?.sender.email).toBeUndefined();
  });
});
