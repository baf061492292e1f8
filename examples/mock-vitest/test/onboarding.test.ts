/**
 * A typical integrator's Vitest suite with @ocs/mock: the whole API mocked by MSW from the
 * reference server's own code, reset before each test, with the failures the integration
 * must survive switched on where a test needs them.
 */
import {
  createClient,
  createLead,
  createWebhook,
  listLeads,
  OcsRateLimitError,
  OcsServiceUnavailableError,
} from '@ocs/sdk';
import { createOcsMock } from '@ocs/mock/node';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enrolSignups, type Reply, replyWebhook } from '../src/onboarding.ts';

const mock = await createOcsMock({ seed: 2026 });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => mock.reset());
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = createClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });
const [active, , draft] = mock.data.campaigns;
if (!active || !draft) throw new Error('the seed has an active campaign and a draft');
const campaignId = active.id;
const signups = [
  { email: 'ines@example.com', firstName: 'Ines', company: 'Vela' },
  { email: 'marc@example.com', firstName: 'Marc', company: 'Orbit' },
];

describe('enrolSignups', () => {
  it('enrols new people and recognises known ones', async () => {
    const known = mock.data.leads[0];
    const report = await enrolSignups(client, campaignId, [
      ...signups,
      { email: known?.email ?? '', firstName: 'Known', company: 'Known' },
    ]);
    expect(report).toEqual({ enrolled: 2, alreadyKnown: 1, refused: [] });
    // The mock is stateful: the leads are really there, and the totals add up.
    const enrolled = await listLeads(client, { campaign_id: campaignId, limit: 100 });
    expect(enrolled.leads.map((lead) => lead.email)).toEqual(
      expect.arrayContaining(['ines@example.com', 'marc@example.com']),
    );
  });

  it('starts from the seeded state in every test (reset)', async () => {
    expect((await listLeads(client)).total).toBe(mock.data.leads.length);
  });

  it('refuses to enrol into a paused campaign', async () => {
    await expect(enrolSignups(client, draft.id, signups)).rejects.toThrow(/is paused/);
  });

  it('keeps going past a refused address, with the service validation code', async () => {
    const report = await enrolSignups(client, campaignId, [
      { email: 'not-an-email', firstName: 'X', company: 'Y' },
      ...signups,
    ]);
    expect(report.refused).toEqual([{ email: 'not-an-email', code: 'VALIDATION_ERROR' }]);
    expect(report.enrolled).toBe(2);
  });
});

describe('when the service misbehaves', () => {
  it('survives rate limiting: the SDK waits and retries', async () => {
    // A limit that outlasts the retries reaches the caller as a typed error (both attempts refused).
    mock.scenarios.fail('createLead', { status: 429, code: 'RATE_LIMITED', times: 2, retryAfter: 0 });
    const impatient = createClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, maxRetries: 1 });
    await expect(enrolSignups(impatient, campaignId, signups)).rejects.toBeInstanceOf(OcsRateLimitError);
    // createLead declares Idempotency-Key: the SDK sends one (generated) and retries it safely,
    // like the GET; each signup is enrolled once.
    mock.scenarios.fail('getCampaign', { status: 429, code: 'RATE_LIMITED', times: 2, retryAfter: 0 });
    mock.scenarios.fail('createLead', { status: 429, code: 'RATE_LIMITED', times: 1, retryAfter: 0 });
    expect(await enrolSignups(client, campaignId, signups)).toMatchObject({ enrolled: 2, alreadyKnown: 0 });
  });

  it('stops the batch when the service is down', async () => {
    mock.scenarios.unavailable();
    await expect(
      enrolSignups(createClient({ apiKey: mock.apiKey, baseUrl: mock.baseUrl, maxRetries: 0 }), campaignId, signups),
    ).rejects.toBeInstanceOf(OcsServiceUnavailableError);
  });

  it('sees one exact answer from a typed override', async () => {
    mock.use(
      mock.http.get('/campaigns/{campaign_id}', ({ params, response }) =>
        response(200).json({ success: true, campaign: { ...active, id: params.campaign_id, is_active: false } }),
      ),
    );
    await expect(enrolSignups(client, campaignId, signups)).rejects.toThrow(/is paused/);
  });
});

describe('replyWebhook', () => {
  const secret = 'whsec_example_0123456789';

  it('records a verified reply once, and refuses a forged one', async () => {
    const replies: Reply[] = [];
    const endpoint = replyWebhook(secret, (reply) => replies.push(reply));
    const lead = mock.data.leads[0];

    const { request } = await mock.webhooks.trigger({ secret, leadId: lead?.id });
    expect((await endpoint(request)).status).toBe(204);
    const retry = await mock.webhooks.trigger({ secret, leadId: lead?.id });
    expect((await endpoint(retry.request)).status).toBe(204);
    expect(replies).toEqual([{ email: lead?.email, sentiment: 'positive', message: expect.any(String) }]);

    const forged = await mock.webhooks.trigger({ secret: 'not-the-secret', leadId: lead?.id });
    expect((await endpoint(forged.request)).status).toBe(401);
  });

  it('handles a negative reply', async () => {
    const replies: Reply[] = [];
    const endpoint = replyWebhook(secret, (reply) => replies.push(reply));
    const { request } = await mock.webhooks.trigger({
      secret,
      overrides: {
        prospect_message: 'Please remove me.',
        ai_response: { sentiment: 'negative', agent_action: 'close' },
      },
    });
    await endpoint(request);
    expect(replies[0]).toMatchObject({ sentiment: 'negative', message: 'Please remove me.' });
  });

  it('receives a reply the service delivers, end to end through the sandbox', async () => {
    const replies: Reply[] = [];
    const endpoint = replyWebhook(secret, (reply) => replies.push(reply));
    // The integration's receiver, served by MSW at a public HTTPS address.
    server.use(http.post('https://hooks.example.com/ocs', ({ request }) => endpoint(request)));
    await createWebhook(client, { campaign_id: campaignId, webhook_url: 'https://hooks.example.com/ocs', secret });
    const lead = await createLead(client, { email: 'zoe@example.com', first_name: 'Zoe', campaign_id: campaignId });
    // A day on the sandbox clock: the campaign's first step reaches the new lead.
    await mock.sandbox.advanceClock({ days: 1 });
    const { delivery } = await mock.sandbox.reply({
      leadId: lead.lead.id,
      channel: 'email',
      message: 'Sounds good, can we talk on Thursday?',
    });
    expect(delivery?.status).toBe('delivered');
    expect(replies).toEqual([
      { email: 'zoe@example.com', sentiment: 'positive', message: 'Sounds good, can we talk on Thursday?' },
    ]);
  });
});
