/**
 * The Sandbox operations' own rules: only in sandbox mode, the clock only forward, the
 * errors of simulated replies and engagement, section 6 rule 4 (which replies are
 * delivered), bookings of both kinds, and organization isolation. The end-to-end play of a
 * campaign is `test/engine/end-to-end.test.ts`.
 */
import { beforeEach, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, emailSequence } from '../support/campaign-setup.ts';
import type { DeliveryRequest } from '../../src/delivery/types.ts';
import { answer, fakeTransport, type FakeTransport } from '../support/fake-transport.ts';

const start = '2026-11-09T09:00:00.000Z';
type Failure = { error: string; message: string };

describeBackends('sandbox operations', (store) => {
  let api: TestApi;
  let campaignId: string;
  let leadId: string;
  let transport: FakeTransport;
  /** How the receivers answer; every test starts with receivers that accept. */
  let receive: (request: DeliveryRequest) => ReturnType<typeof answer.ok>;

  beforeEach(async () => {
    const clock = new SandboxClock({ now: () => new Date(start) });
    receive = () => answer.ok();
    transport = fakeTransport(clock, (request) => receive(request));
    api = await createTestApi(store(), { clock, config: { sandbox: true }, webhookTransport: transport });
    campaignId = await createCampaign(api, { name: 'Sandbox', sequence: emailSequence(2) });
    const accounts = await demoAccounts(api);
    await api.call('PUT', `/v1/campaigns/${campaignId}/senders`, { body: { account_ids: [accounts.email.id] } });
    const lead = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
      body: { email: 'maya@acme-robotics.example', first_name: 'Maya', company: 'Acme', campaign_id: campaignId },
    });
    leadId = lead.body.lead.id;
    expect((await api.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { is_active: true } })).status).toBe(200);
  });

  const reply = (message: string, lead = leadId, campaign = campaignId) =>
    api.call<{ reply: Record<string, unknown> & { delivery: { idempotency_key: string } | null } } & Failure>(
      'POST',
      `/v1/sandbox/campaigns/${campaign}/replies`,
      { body: { lead_id: lead, channel: 'email', message } },
    );
  const advance = (body: unknown) => api.call<Failure>('POST', '/v1/sandbox/clock/advance', { body });
  const addWebhook = () =>
    api.call('POST', `/v1/campaigns/${campaignId}/webhooks`, {
      body: { webhook_url: 'https://hooks.example.com/ocs', secret: 'whsec_sandbox_0123456789' },
    });

  it('reads and advances the clock, forward only, by exactly one of seconds, days or to', async () => {
    const clock = await api.call<{ clock: { now: string; offset_seconds: number } }>('GET', '/v1/sandbox/clock');
    expect(clock.body.clock).toEqual({ now: '2026-11-09T09:00:00.000+00:00', offset_seconds: 0 });
    expect((await advance({ days: 2 })).status).toBe(200);
    expect((await advance({ seconds: 30 })).status).toBe(200);
    const moved = await api.call<{ clock: { offset_seconds: number } }>('GET', '/v1/sandbox/clock');
    expect(moved.body.clock.offset_seconds).toBe(2 * 86_400 + 30);
    const backwards = await advance({ to: '2026-11-10T00:00:00+00:00' });
    expect([backwards.status, backwards.body.error]).toEqual([400, 'CLOCK_BACKWARDS']);
    const forward = await advance({ to: '2026-11-20T09:00:00+00:00' });
    expect(forward.status).toBe(200);
    expect(
      (await api.call<{ clock: { offset_seconds: number } }>('GET', '/v1/sandbox/clock')).body.clock.offset_seconds,
    ).toBe(11 * 86_400);
    for (const body of [{}, { days: 1, seconds: 1 }, { days: 0 }, { seconds: -5 }, { days: 400 }]) {
      const refused = await advance(body);
      expect([refused.status, refused.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  it('answers 404 SANDBOX_DISABLED for every sandbox operation when sandbox mode is off', async () => {
    const off = await createTestApi(store(), { config: { sandbox: false } });
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/v1/sandbox/clock'],
      ['POST', '/v1/sandbox/clock/advance', { days: 1 }],
      ['POST', `/v1/sandbox/campaigns/${campaignId}/replies`, { lead_id: leadId, channel: 'email', message: 'Hi' }],
      ['POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, { lead_id: leadId, kind: 'email_opened' }],
      ['GET', `/v1/sandbox/campaigns/${campaignId}/messages`],
      ['GET', `/v1/sandbox/campaigns/${campaignId}/deliveries`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await off.call<Failure>(method, path, body === undefined ? {} : { body });
      expect([method, path, answer.status, answer.body.error]).toEqual([method, path, 404, 'SANDBOX_DISABLED']);
    }
  });

  it('refuses replies from unknown, unenrolled and not yet contacted leads', async () => {
    const unknown = await reply('Hi', '7f1e2d3c-4b5a-4697-8e1d-2c3b4a5f6e7d');
    expect([unknown.status, unknown.body.error]).toEqual([404, 'LEAD_NOT_FOUND']);
    const other = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
      body: { email: 'omar@example.com', first_name: 'Omar' },
    });
    const unenrolled = await reply('Hi', other.body.lead.id);
    expect([unenrolled.status, unenrolled.body.error]).toEqual([409, 'LEAD_NOT_ENROLLED']);
    const early = await reply('Hi');
    expect([early.status, early.body.error]).toEqual([409, 'LEAD_NOT_CONTACTED']);
    const open = await api.call<Failure>('POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, {
      body: { lead_id: leadId, kind: 'email_opened' },
    });
    expect([open.status, open.body.error]).toEqual([409, 'LEAD_NOT_CONTACTED']);
  });

  it("delivers a lead's first reply, and again only a later positive reply after non-positive ones", async () => {
    expect((await addWebhook()).status).toBe(201);
    await advance({ seconds: 1 });
    const first = await reply('Thanks, but we are not interested right now.');
    expect(first.status).toBe(201);
    expect(first.body.reply).toMatchObject({ sentiment: 'negative', not_delivered_reason: null });
    // Replies a second apart, so that the deliveries list in a known order.
    await advance({ seconds: 1 });
    const repeat = await reply('Again: not interested.');
    expect(repeat.body.reply.delivery).toBeNull();
    expect(repeat.body.reply.not_delivered_reason).toMatch(/^repeat reply/);
    await advance({ seconds: 1 });
    const positive = await reply('Actually, sounds good, let us talk next week.');
    expect(positive.body.reply).toMatchObject({ sentiment: 'positive', not_delivered_reason: null });
    expect(positive.body.reply.delivery?.idempotency_key).not.toBe(first.body.reply.delivery?.idempotency_key);
    const positiveAgain = await reply('Great, looking forward to it, sounds good.');
    expect(positiveAgain.body.reply.delivery).toBeNull();
    const deliveries = await api.call<{ total: number; deliveries: Array<{ payload: { prospect_message: string } }> }>(
      'GET',
      `/v1/sandbox/campaigns/${campaignId}/deliveries`,
    );
    expect(deliveries.body.total).toBe(2);
    expect(deliveries.body.deliveries.map((d) => d.payload.prospect_message)).toEqual([
      'Thanks, but we are not interested right now.',
      'Actually, sounds good, let us talk next week.',
    ]);
  });

  it("answers as the document's examples say: the delivery queued (pending, attempted right after), a repeat not delivered", async () => {
    type Example = {
      value: { message: string; reply: Record<string, unknown> & { delivery: { status: string } | null } };
    };
    const operation = (openApiDocument.paths['/sandbox/campaigns/{campaign_id}/replies'] as Record<string, unknown>)
      .post as { responses: { 201: { content: { 'application/json': { examples: Record<string, Example> } } } } };
    const examples = operation.responses[201].content['application/json'].examples;
    await addWebhook();
    await advance({ seconds: 1 });
    let attempted = false;
    receive = () => {
      attempted = true;
      return answer.ok();
    };
    const first = await reply('Sounds good, let us talk next week.');
    expect(first.status).toBe(201);
    const queued = examples.queued?.value;
    expect((first.body as unknown as { message: string }).message).toBe(queued?.message);
    expect(first.body.reply.delivery).toMatchObject({ status: queued?.reply.delivery?.status });
    const repeat = await reply('Also, could you send a one-pager before we talk?');
    const notAgain = examples.repeat_reply?.value;
    expect((repeat.body as unknown as { message: string }).message).toBe(notAgain?.message);
    expect(repeat.body.reply).toMatchObject({
      delivery: null,
      not_delivered_reason: notAgain?.reply.not_delivered_reason,
    });
    // The first attempt follows the answer: the next round runs it, and it is delivered.
    expect(attempted).toBe(false);
    await advance({ seconds: 1 });
    expect(attempted).toBe(true);
    const listed = await api.call<{ deliveries: Array<{ status: string }> }>(
      'GET',
      `/v1/sandbox/campaigns/${campaignId}/deliveries`,
    );
    expect(listed.body.deliveries.map((d) => d.status)).toEqual(['delivered']);
  });

  it('records a reply without delivering it when the campaign has no enabled webhook, and pauses the lead', async () => {
    await advance({ seconds: 1 });
    const answer = await reply("I'm out of the office until Monday with limited access to email.");
    expect(answer.status).toBe(201);
    expect(answer.body.reply).toMatchObject({
      out_of_office: true,
      delivery: null,
      not_delivered_reason: 'no enabled webhook on the campaign',
    });
    const lead = await api.call<{ enrolments?: unknown }>('GET', `/v1/leads/${leadId}`);
    expect(lead.status).toBe(200);
    // Paused: the second email never goes out.
    await advance({ days: 5 });
    const messages = await api.call<{ total: number }>('GET', `/v1/sandbox/campaigns/${campaignId}/messages`);
    expect(messages.body.total).toBe(1);
  });

  it('retries a failed delivery every 15 minutes of the sandbox clock, with the same bytes', async () => {
    await addWebhook();
    await advance({ seconds: 1 });
    receive = () => answer.status(503);
    const first = await reply('Sounds good, let us talk.');
    expect(first.body.reply.delivery).not.toBeNull();
    const attempted = async (body: unknown) => {
      const moved = await api.call<{ ran: { deliveries_attempted: number } }>('POST', '/v1/sandbox/clock/advance', {
        body,
      });
      return moved.body.ran.deliveries_attempted;
    };
    expect(await attempted({ seconds: 1 })).toBe(1);
    expect(await attempted({ seconds: 14 * 60 })).toBe(0);
    expect(await attempted({ seconds: 60 })).toBe(1);
    receive = () => answer.ok(202);
    expect(await attempted({ seconds: 15 * 60 })).toBe(1);
    expect(await attempted({ days: 3 })).toBe(0);
    expect(transport.sent).toHaveLength(3);
    const gaps = transport.sent
      .slice(1)
      .map((sent, i) => Date.parse(sent.sentAt) - Date.parse(transport.sent[i]?.sentAt ?? ''));
    expect(gaps).toEqual([15 * 60_000, 15 * 60_000]);
    for (const sent of transport.sent) expect(sent.body).toEqual(transport.sent[0]?.body);
    expect(transport.sent.map((sent) => sent.headers['X-OCS-Delivery-Attempt'])).toEqual(['1', '2', '3']);
    const listed = await api.call<{
      deliveries: Array<{ status: string; attempts: Array<{ status: number; ok: boolean }> }>;
    }>('GET', `/v1/sandbox/campaigns/${campaignId}/deliveries`);
    expect(listed.body.deliveries.map((d) => [d.status, d.attempts.map((a) => [a.status, a.ok])])).toEqual([
      [
        'delivered',
        [
          [503, false],
          [503, false],
          [202, true],
        ],
      ],
    ]);
  });

  it('records the booking the reply agent confirms, and the analysis counts it as a meeting', async () => {
    const responder = await api.call('PATCH', `/v1/campaigns/${campaignId}/responder`, {
      body: { enabled: true, mode: 'autopilot', booking_url: 'https://cal.example.com/acme/intro' },
    });
    expect(responder.status).toBe(200);
    await advance({ seconds: 1 });
    const interested = await reply('Sounds good, happy to talk.');
    expect(interested.body.reply).toMatchObject({ ai_response: { agent_action: 'reply', goal_status: 'link_sent' } });
    await advance({ seconds: 60 });
    const booked = await reply('Done, I just booked a slot for Thursday.');
    expect(booked.body.reply).toMatchObject({
      ai_response: { conversation_status: 'closed_won', goal_status: 'confirmed', complete: true },
    });
    const bookings = await api.call<{ bookings?: unknown }>('GET', `/v1/campaigns/${campaignId}/bookings`);
    expect(JSON.stringify(bookings.body)).toContain('"confirmed_by":"agent"');
    const analysis = await api.call<{ analysis: { funnel: { meetings: number; positive: number } } }>(
      'GET',
      `/v1/campaigns/${campaignId}/analysis`,
    );
    expect(analysis.body.analysis.funnel).toMatchObject({ meetings: 1, positive: 1 });
  });

  it('books meetings from a calendar and confirmations, listed by GET /bookings', async () => {
    const noStart = await api.call<Failure>('POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, {
      body: { lead_id: leadId, kind: 'meeting_booked' },
    });
    expect([noStart.status, noStart.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    const meeting = await api.call<{ engagement: { booking: Record<string, unknown> } }>(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/engagements`,
      { body: { lead_id: leadId, kind: 'meeting_booked', start_time: '2026-11-12T15:00:00+00:00' } },
    );
    expect(meeting.status).toBe(201);
    expect(meeting.body.engagement.booking).toMatchObject({
      kind: 'meeting',
      status: 'active',
      invitee_email: 'maya@acme-robotics.example',
      start_time: '2026-11-12T15:00:00.000+00:00',
    });
    const confirmed = await api.call<{ engagement: { booking: Record<string, unknown> } }>(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/engagements`,
      { body: { lead_id: leadId, kind: 'booking_confirmed', confirmed_by: 'person' } },
    );
    expect(confirmed.body.engagement.booking).toMatchObject({
      kind: 'confirmation',
      start_time: null,
      confirmed_by: 'person',
    });
    const bookings = await api.call<Record<string, unknown>>('GET', `/v1/campaigns/${campaignId}/bookings`);
    expect(bookings.status).toBe(200);
    expect(JSON.stringify(bookings.body)).toContain(String((meeting.body.engagement.booking as { id: string }).id));
  });

  it("never reaches another organization's campaigns or leads", async () => {
    const other = await createTestApi(store(), {
      clock: new SandboxClock({ now: () => new Date(start) }),
      config: { sandbox: true },
    });
    const calls: Array<[string, string, unknown?]> = [
      ['POST', `/v1/sandbox/campaigns/${campaignId}/replies`, { lead_id: leadId, channel: 'email', message: 'Hi' }],
      ['POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, { lead_id: leadId, kind: 'email_opened' }],
      ['GET', `/v1/sandbox/campaigns/${campaignId}/messages`],
      ['GET', `/v1/sandbox/campaigns/${campaignId}/deliveries`],
    ];
    for (const [method, path, body] of calls) {
      const answer = await other.call<Failure>(method, path, body === undefined ? {} : { body });
      expect([path, answer.status, answer.body.error]).toEqual([path, 404, 'CAMPAIGN_NOT_FOUND']);
    }
  });
});
