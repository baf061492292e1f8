/**
 * `mock.sandbox` end to end in Node, behind MSW: a simulated reply reaches the campaign's
 * webhook (a receiver mocked with MSW) signed as the service signs it; the clock runs the
 * sequence; engagement is recorded; `reset()` puts the clock back and forgets what was sent;
 * the sandbox calls leave the test's rate-limit budget alone; and the webhook trigger shapes
 * its event with the same builder as the deliveries.
 */
import { createHmac } from 'node:crypto';
import {
  createClient,
  createWebhook,
  getCampaignAnalysis,
  getSandboxClock,
  listCampaigns,
  simulateReply,
} from '@ocs/sdk';
import { type ProspectResponseEvent, verifySignature } from '@ocs/sdk/webhooks';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { createOcsMock, OcsMockSandboxError } from '../src/node/index.ts';
import { mockedApi } from './support/setup.ts';

const { mock, server, client } = await mockedApi({ seed: 17 });

const hookUrl = 'https://hooks.northwind-outreach.com/ocs/prospect-response';
const secret = 'whsec_sandbox_test_0123456789';
const dayMs = 86_400_000;

const founders = mock.data.campaigns[0] ?? failSetup('seeded campaign missing');
// A lead of the first campaign (email first, on both arms).
const lead =
  mock.data.leads.find((l) => l.enrolments[0]?.campaign_id === founders.id) ?? failSetup('seeded lead missing');

function failSetup(why: string): never {
  throw new Error(why);
}

interface Received {
  body: string;
  signature: string | null;
  attempt: string | null;
}

/**
 * A receiver mocked with MSW at the webhook URL; it records the raw body and headers, and
 * answers with a body (which must not hold the delivery up).
 */
function receiver(status = 200): Received[] {
  const received: Received[] = [];
  server.use(
    http.post(hookUrl, async ({ request }) => {
      received.push({
        body: await request.text(),
        signature: request.headers.get('X-Signature-256'),
        attempt: request.headers.get('X-OCS-Delivery-Attempt'),
      });
      return HttpResponse.json({ received: true }, { status });
    }),
  );
  return received;
}

async function registerWebhook(): Promise<void> {
  await createWebhook(client(), { campaign_id: founders.id, webhook_url: hookUrl, secret });
}

describe('mock.sandbox.reply', () => {
  it('delivers a signed prospect_response to the webhook before it resolves', async () => {
    await registerWebhook();
    const received = receiver();
    await mock.sandbox.advanceClock({ seconds: 1 }); // the first email goes out

    const message = 'Sounds good, happy to talk next week.';
    const { reply, delivery } = await mock.sandbox.reply({ leadId: lead.id, channel: 'email', message });

    expect(reply).toMatchObject({ campaign_id: founders.id, lead_id: lead.id, sentiment: 'positive' });
    expect(received).toHaveLength(1);
    const [got] = received;
    if (!got || !delivery) throw new Error('nothing delivered');
    // Verified twice: by the SDK, and by an HMAC computed here from the raw bytes.
    expect(await verifySignature({ payload: got.body, signature: got.signature, secret })).toBe(true);
    expect(got.signature).toBe(`sha256=${createHmac('sha256', secret).update(got.body).digest('hex')}`);
    expect(got.attempt).toBe('1');
    const event = JSON.parse(got.body) as ProspectResponseEvent;
    expect(event).toMatchObject({
      event: 'prospect_response',
      idempotency_key: reply.delivery?.idempotency_key,
      sequence_lead_id: lead.enrolments[0]?.sequence_lead_id,
      channel: 'email',
      prospect_message: message,
      campaign: founders.name,
      lead: { email: lead.email },
    });
    expect(delivery).toMatchObject({ status: 'delivered', attempts_made: 1, payload: event });
    expect(delivery.attempts).toEqual([expect.objectContaining({ ok: true, status: 200, webhook_url: hookUrl })]);
  });

  it("reports a receiver's failure, and the clock runs the retry", async () => {
    await registerWebhook();
    const received = receiver(500);
    await mock.sandbox.advanceClock({ seconds: 1 });
    const { delivery } = await mock.sandbox.reply({ leadId: lead.id, channel: 'email', message: 'Yes, interested.' });
    expect(delivery).toMatchObject({ status: 'pending', attempts_made: 1 });
    expect(delivery?.attempts[0]).toMatchObject({ ok: false, status: 500 });

    const { ran } = await mock.sandbox.advanceClock({ seconds: 15 * 60 });
    expect(ran.deliveries_attempted).toBe(1);
    expect(received.map((r) => r.attempt)).toEqual(['1', '2']);
    expect(received[1]?.body).toBe(received[0]?.body); // the same bytes on every attempt
  });

  it("delivers a reply simulated with the client before the client's call resolves", async () => {
    await registerWebhook();
    const received = receiver();
    await mock.sandbox.advanceClock({ seconds: 1 });
    const answer = await simulateReply(client(), {
      campaign_id: founders.id,
      lead_id: lead.id,
      channel: 'email',
      message: 'Tell me more.',
    });
    expect(answer.reply.delivery).not.toBeNull();
    expect(received).toHaveLength(1);
    const [delivery] = await mock.sandbox.deliveries(founders.id);
    expect(delivery?.status).toBe('delivered');
  });

  it('says why a reply is not delivered, and throws the API error for a lead never written to', async () => {
    await mock.sandbox.advanceClock({ seconds: 1 });
    const quiet = await mock.sandbox.reply({ leadId: lead.id, channel: 'email', message: 'Sure.' });
    expect(quiet.delivery).toBeNull();
    expect(quiet.reply.not_delivered_reason).toMatch(/no enabled webhook/);

    const error = await mock.sandbox
      .reply({ leadId: lead.id, channel: 'linkedin', message: 'Hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsMockSandboxError);
    expect(error).toMatchObject({
      operationId: 'simulateReply',
      status: 409,
      code: 'LEAD_NOT_CONTACTED',
      body: { success: false, error: 'LEAD_NOT_CONTACTED', request_id: expect.any(String) },
    });

    const unknown = await mock.sandbox
      .reply({ leadId: crypto.randomUUID(), channel: 'email', message: 'Hi' })
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({ operationId: 'getLead', status: 404, code: 'LEAD_NOT_FOUND' });
  });
});

describe("a webhook under the mock's own base URL", () => {
  it('gets an answer from the mock like any request: no loop', async () => {
    // `.test` names cannot be webhooks; a mock at a public-looking name can receive its own.
    const own = await createOcsMock({ seed: 17, baseUrl: 'https://api.northwind-outreach.com/v1' });
    server.use(...own.handlers);
    const campaign = own.data.campaigns[0];
    const ownLead = own.data.leads.find((l) => l.enrolments[0]?.campaign_id === campaign?.id);
    if (!campaign || !ownLead) throw new Error('seeded data missing');
    // The worst case: the webhook is the reply operation itself.
    const target = `${own.baseUrl}/sandbox/campaigns/${campaign.id}/replies`;
    const ownClient = createClient({ apiKey: own.apiKey, baseUrl: own.baseUrl, maxRetries: 0 });
    await createWebhook(ownClient, { campaign_id: campaign.id, webhook_url: target, secret });
    await own.sandbox.advanceClock({ seconds: 1 });

    const { delivery } = await own.sandbox.reply({ leadId: ownLead.id, channel: 'email', message: 'Yes please.' });
    // Deliveries carry no API key: the operation refuses the event, and nothing repeats.
    expect(delivery?.attempts).toEqual([expect.objectContaining({ ok: false, status: 401 })]);
    expect(await own.sandbox.deliveries(campaign.id)).toHaveLength(1);
  });
});

describe('mock.sandbox.advanceClock', () => {
  it('moves the clock and runs the steps that come due: the messages appear', async () => {
    expect(await mock.sandbox.messages(founders.id)).toEqual([]);
    const before = mock.sandbox.now().getTime();

    const first = await mock.sandbox.advanceClock({ seconds: 1 });
    expect(first.ran.steps_run).toBeGreaterThan(0);
    const sent = await mock.sandbox.messages(founders.id);
    const enrolled = mock.data.leads.filter((l) => l.enrolments.some((e) => e.campaign_id === founders.id));
    expect(sent).toHaveLength(enrolled.length); // the first email to every lead
    expect(new Set(sent.map((m) => m.step_type))).toEqual(new Set(['email']));
    const own = await mock.sandbox.messages(founders.id, { leadId: lead.id });
    expect(own).toHaveLength(1);
    expect(own[0]?.body).toContain(lead.first_name ?? '');

    const later = await mock.sandbox.advanceClock({ days: 3 });
    expect(later.clock.offset_seconds).toBeGreaterThanOrEqual(3 * 86_400);
    expect(mock.sandbox.now().getTime() - before).toBeGreaterThanOrEqual(3 * dayMs);
    expect((await mock.sandbox.messages(founders.id)).length).toBeGreaterThan(sent.length);
  });

  it('takes a moment to move to, and refuses one in the past with the API error', async () => {
    const target = new Date(mock.sandbox.now().getTime() + 2 * dayMs);
    const { clock } = await mock.sandbox.advanceClock({ to: target });
    expect(new Date(clock.now).getTime()).toBeGreaterThanOrEqual(target.getTime());

    const error = await mock.sandbox.advanceClock({ to: new Date(0) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsMockSandboxError);
    expect(error).toMatchObject({ status: 400, code: 'CLOCK_BACKWARDS' });
  });
});

describe('mock.sandbox.engage', () => {
  it("records an open of the lead's email, counted by the campaign's analytics", async () => {
    const opened = () =>
      getCampaignAnalysis(client(), { campaign_id: founders.id }).then((a) => a.analysis?.channels.email.opened);
    await mock.sandbox.advanceClock({ seconds: 1 });
    expect(await opened()).toBe(0);

    const engagement = await mock.sandbox.engage({ leadId: lead.id, kind: 'email_opened' });
    expect(engagement).toMatchObject({
      kind: 'email_opened',
      lead_id: lead.id,
      sequence_lead_id: lead.enrolments[0]?.sequence_lead_id,
      booking: null,
    });
    expect(await opened()).toBe(1);
  });

  it('books a meeting at a start time given as a Date, and refuses an engagement before contact', async () => {
    const start = new Date(mock.sandbox.now().getTime() + 5 * dayMs);
    const meeting = await mock.sandbox.engage({ leadId: lead.id, kind: 'meeting_booked', start_time: start });
    expect(meeting.booking).toMatchObject({ kind: 'meeting' });

    const error = await mock.sandbox.engage({ leadId: lead.id, kind: 'connection_accepted' }).catch((e) => e);
    expect(error).toMatchObject({ operationId: 'simulateEngagement', status: 409, code: 'LEAD_NOT_CONTACTED' });
  });
});

describe('reset()', () => {
  it('puts the clock back and forgets messages and deliveries', async () => {
    await registerWebhook();
    receiver();
    await mock.sandbox.advanceClock({ days: 2 });
    await mock.sandbox.reply({ leadId: lead.id, channel: 'email', message: 'Interested!' });
    expect((await mock.sandbox.messages(founders.id)).length).toBeGreaterThan(0);
    expect(await mock.sandbox.deliveries(founders.id)).toHaveLength(1);

    mock.reset();
    // Back to real time: within a minute of the system clock, not two days ahead.
    expect(Math.abs(mock.sandbox.now().getTime() - Date.now())).toBeLessThan(60_000);
    expect((await getSandboxClock(client())).clock.offset_seconds).toBe(0);
    expect(await mock.sandbox.messages(founders.id)).toEqual([]);
    expect(await mock.sandbox.deliveries(founders.id)).toEqual([]);
  });
});

describe('the clock option', () => {
  it('is the time the sandbox clock runs ahead of, and the time reset() returns to', async () => {
    const fixed = new Date('2026-11-02T09:00:00.000Z');
    const pinned = await createOcsMock({ seed: 3, clock: { now: () => fixed } });
    expect(pinned.sandbox.now()).toEqual(fixed);
    const { clock } = await pinned.sandbox.advanceClock({ days: 1 });
    expect(clock).toEqual({ now: '2026-11-03T09:00:00.000+00:00', offset_seconds: 86_400 });
    expect(pinned.sandbox.now()).toEqual(new Date(fixed.getTime() + dayMs));
    pinned.reset();
    expect(pinned.sandbox.now()).toEqual(fixed);
  });
});

describe('budget and scenarios', () => {
  it("leaves the test's rate-limit budget and scenarios alone", async () => {
    mock.scenarios.rateLimit({ perEndpoint: 2, total: 2 });
    mock.scenarios.fail('listSandboxMessages', { status: 500, code: 'INTERNAL_ERROR', times: 5 });
    for (let i = 0; i < 3; i++) await mock.sandbox.advanceClock({ seconds: 1 });
    await mock.sandbox.messages(founders.id);
    await mock.sandbox.engage({ leadId: lead.id, kind: 'email_opened' });

    const first = await listCampaigns(client({ maxRetries: 0 }));
    expect(first.rateLimit.remaining).toBe(1);
  });
});

describe('mock.webhooks.trigger', () => {
  it('builds the same event as the delivery of the same reply (one builder)', async () => {
    await registerWebhook();
    receiver();
    await mock.sandbox.advanceClock({ seconds: 1 });
    const message = 'Happy to chat, what time works?';
    const { delivery } = await mock.sandbox.reply({ leadId: lead.id, channel: 'email', message });
    const { event } = await mock.webhooks.trigger({
      secret,
      leadId: lead.id,
      channel: 'email',
      overrides: { prospect_message: message },
    });
    const payload = delivery?.payload ?? failSetup('not delivered');
    // The same fields in the same order, equal but for the time each was built at.
    expect(Object.keys(event)).toEqual(Object.keys(payload));
    expect({ ...event, timestamp: 'any' }).toEqual({ ...payload, timestamp: 'any' });
    expect(event.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  });

  it("reads the overridden message with the server's classifier", async () => {
    const { event } = await mock.webhooks.trigger({
      secret,
      leadId: lead.id,
      overrides: { prospect_message: 'Not interested, please remove me from your list.' },
    });
    expect(event.ai_response).toMatchObject({ sentiment: 'negative', out_of_office: false });
    const holiday = await mock.webhooks.trigger({
      secret,
      leadId: lead.id,
      overrides: { prospect_message: 'I am out of office until Monday.' },
    });
    expect(holiday.event.ai_response).toMatchObject({ sentiment: 'neutral', out_of_office: true });
  });
});
