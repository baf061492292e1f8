/**
 * A campaign played end to end through the API on the sandbox clock: leads enrolled, steps
 * sent, opens and an accepted connection, replies, the `prospect_response` webhooks received
 * on a real loopback receiver and verified with an HMAC written here (not the SDK's), and
 * the analysis checked against the events the store recorded.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import { createNodeWebhookTransport, type NodeWebhookTransport } from '../../src/node/webhook-transport.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { demoAccounts, q4Sequence } from '../support/campaign-setup.ts';
import { type LoopbackReceiver, startLoopbackReceiver } from '../support/loopback-receiver.ts';
import { present, startOfTest } from './engine-setup.ts';

const secret = 'whsec_end_to_end_0123456789';

/** Section 6 rule 5, computed independently of the SDK. */
function signatureMatches(body: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describeBackends('a campaign played end to end on the sandbox clock', (store) => {
  let api: TestApi;
  let receiver: LoopbackReceiver;
  let transport: NodeWebhookTransport;

  beforeEach(async () => {
    receiver = await startLoopbackReceiver();
    transport = createNodeWebhookTransport({ allowInsecure: true, timeoutMs: 5000 });
    api = await createTestApi(store(), {
      clock: new SandboxClock({ now: () => new Date(startOfTest) }),
      config: { sandbox: true, allowInsecureWebhooks: true },
      webhookTransport: transport,
    });
  });

  afterEach(async () => {
    transport.close();
    await receiver.close();
  });

  const ok = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, status = 200) => {
    const answer = await api.call<T>(method, path, body === undefined ? {} : { body });
    if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const advance = (body: Record<string, unknown>) =>
    ok<{ ran: { steps_run: number; deliveries_attempted: number } }>('POST', '/v1/sandbox/clock/advance', body);

  it('sends, counts and delivers what happened', async () => {
    const { campaign_id: campaignId } = await ok<{ campaign_id: string }>(
      'POST',
      '/v1/campaigns',
      { name: 'End to end', sequence: q4Sequence() },
      201,
    );
    const accounts = await demoAccounts(api);
    await ok('PUT', `/v1/campaigns/${campaignId}/senders`, { account_ids: [accounts.email.id, accounts.linkedin.id] });
    await ok(
      'POST',
      `/v1/campaigns/${campaignId}/ai-fields`,
      {
        field_name: 'icebreaker',
        ai_instructions: 'One line on their news.',
        fallback_value: 'Congrats on the launch.',
      },
      201,
    );
    const leads: Array<{ id: string; enrolment: string }> = [];
    for (const name of ['Maya', 'Omar', 'Lena']) {
      const created = await ok<{ lead: { id: string }; sequence_lead_id: string }>(
        'POST',
        '/v1/leads',
        {
          email: `${name.toLowerCase()}@acme-robotics.example`,
          first_name: name,
          company: 'Acme Robotics',
          campaign_id: campaignId,
        },
        201,
      );
      leads.push({ id: created.lead.id, enrolment: created.sequence_lead_id });
    }
    const [maya, omar, lena] = leads as [(typeof leads)[0], (typeof leads)[0], (typeof leads)[0]];
    await ok(
      'POST',
      `/v1/campaigns/${campaignId}/webhooks`,
      { webhook_url: `${receiver.origin}/hooks/ocs`, secret },
      201,
    );
    await ok('PATCH', `/v1/campaigns/${campaignId}`, { is_active: true });

    // Day 0: the first email goes to everyone; Maya and Omar open it.
    expect((await advance({ seconds: 1 })).ran).toEqual({ steps_run: 3, deliveries_attempted: 0 });
    const messages = await ok<{ messages: Array<{ lead_id: string; subject: string; body: string }> }>(
      'GET',
      `/v1/sandbox/campaigns/${campaignId}/messages`,
    );
    // Sent at the same instant: ties are in message ID order, so compare as sets.
    expect(messages.messages.map((m) => m.subject).sort()).toEqual(
      ['Lena', 'Maya', 'Omar'].map((name) => `${name}, quick question about Acme Robotics`),
    );
    for (const message of messages.messages) expect(message.body).toContain('Congrats on the launch.');
    for (const lead of [maya, omar]) {
      await ok(
        'POST',
        `/v1/sandbox/campaigns/${campaignId}/engagements`,
        { lead_id: lead.id, kind: 'email_opened' },
        201,
      );
    }
    // A connection can be accepted only once requested (day 2).
    const early = await api.call('POST', `/v1/sandbox/campaigns/${campaignId}/engagements`, {
      body: { lead_id: maya.id, kind: 'connection_accepted' },
    });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('LEAD_NOT_CONTACTED');

    // Days 1-2: profile views and connection requests; Maya accepts and replies on LinkedIn.
    expect((await advance({ days: 2 })).ran.steps_run).toBe(6);
    await ok(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/engagements`,
      { lead_id: maya.id, kind: 'connection_accepted' },
      201,
    );
    const mayaReply = 'Sounds good, happy to talk. Could we do Thursday? What does pricing look like?';
    const replied = await ok<{ reply: { sentiment: string; delivery: { idempotency_key: string } | null } }>(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/replies`,
      { lead_id: maya.id, channel: 'linkedin', message: mayaReply },
      201,
    );
    expect(replied.reply.sentiment).toBe('positive');
    expect(replied.reply.delivery).not.toBeNull();
    expect((await advance({ seconds: 1 })).ran.deliveries_attempted).toBe(1);

    // The webhook arrived once, signed over the exact bytes, with the documented key.
    expect(receiver.requests).toHaveLength(1);
    const delivered = present(receiver.requests[0], 'first delivery');
    expect(delivered.method).toBe('POST');
    expect(delivered.url).toBe('/hooks/ocs');
    expect(delivered.headers['content-type']).toBe('application/json');
    expect(signatureMatches(delivered.body, delivered.headers['x-signature-256'] as string)).toBe(true);
    const event = JSON.parse(delivered.body.toString('utf8'));
    const key = createHash('sha256')
      .update([maya.enrolment, campaignId, 'linkedin', mayaReply].join('\n'))
      .digest('hex');
    expect(event).toMatchObject({
      event: 'prospect_response',
      idempotency_key: key,
      sequence_lead_id: maya.enrolment,
      channel: 'linkedin',
      campaign: 'End to end',
      prospect_message: mayaReply,
      variation: 'a',
      lead: { first_name: 'Maya', email: 'maya@acme-robotics.example', company: 'Acme Robotics' },
      ai_response: { sentiment: 'positive', out_of_office: false },
      sender: { linkedin: { account_id: accounts.linkedin.id }, email: { account_id: accounts.email.id } },
    });
    expect(event.idempotency_key).toBe(replied.reply.delivery?.idempotency_key);
    expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);

    // Omar declines by email (delivered: his first reply); Maya writes again (not delivered).
    await ok(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/replies`,
      {
        lead_id: omar.id,
        channel: 'email',
        message: 'Not interested, please remove me from your list.',
      },
      201,
    );
    const again = await ok<{ reply: { delivery: unknown; not_delivered_reason: string | null } }>(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/replies`,
      { lead_id: maya.id, channel: 'linkedin', message: 'Also, can you send the deck?' },
      201,
    );
    expect(again.reply.delivery).toBeNull();
    expect(again.reply.not_delivered_reason).toMatch(/repeat/);
    await ok(
      'POST',
      `/v1/sandbox/campaigns/${campaignId}/engagements`,
      {
        lead_id: maya.id,
        kind: 'meeting_booked',
        start_time: '2026-11-19T15:00:00+00:00',
      },
      201,
    );

    // Two weeks later: Lena went through her whole sequence; the replies paused the others.
    await advance({ days: 14 });
    expect(receiver.requests).toHaveLength(2);
    const omarEvent = JSON.parse(present(receiver.requests[1], 'second delivery').body.toString('utf8'));
    expect(omarEvent).toMatchObject({ sequence_lead_id: omar.enrolment, ai_response: { sentiment: 'negative' } });
    expect(
      signatureMatches(
        present(receiver.requests[1], 'second delivery').body,
        present(receiver.requests[1], 'second delivery').headers['x-signature-256'] as string,
      ),
    ).toBe(true);

    const deliveries = await ok<{
      deliveries: Array<{ status: string; attempts: Array<{ ok: boolean; status: number }> }>;
    }>('GET', `/v1/sandbox/campaigns/${campaignId}/deliveries`);
    expect(deliveries.deliveries.map((d) => [d.status, d.attempts.map((a) => [a.ok, a.status])])).toEqual([
      ['delivered', [[true, 204]]],
      ['delivered', [[true, 204]]],
    ]);

    // The analysis counts exactly what the events say.
    const events = await store().activity.listForCampaign(campaignId);
    const leadsWith = (kind: string) => new Set(events.filter((e) => e.kind === kind).map((e) => e.enrolment_id)).size;
    const firstReplies = new Map<string, string | null | undefined>();
    for (const e of events)
      if (e.kind === 'reply_received' && !firstReplies.has(e.enrolment_id))
        firstReplies.set(e.enrolment_id, e.data.sentiment);
    const analysis = await ok<{ analysis: Record<string, Record<string, unknown>> }>(
      'GET',
      `/v1/campaigns/${campaignId}/analysis`,
    );
    const { leads: groups, funnel, replies, channels } = analysis.analysis as Record<string, Record<string, unknown>>;
    expect(groups).toMatchObject({ enrolled: 3, paused: 2, completed: 1, active: 0, not_contacted: 0 });
    expect(funnel).toMatchObject({
      enrolled: 3,
      contacted: leadsWith('email_sent'),
      replied: firstReplies.size,
      positive: [...firstReplies.values()].filter((s) => s === 'positive').length,
      meetings: 1,
    });
    expect(funnel?.contacted).toBe(3);
    // Each lead counts once per class it replied with: Maya's follow-up question is neutral.
    const repliedWith = (sentiment: string) =>
      new Set(
        events.filter((e) => e.kind === 'reply_received' && e.data.sentiment === sentiment).map((e) => e.enrolment_id),
      ).size;
    expect(replies).toMatchObject({
      total: firstReplies.size,
      positive: repliedWith('positive'),
      negative: repliedWith('negative'),
      neutral: repliedWith('neutral'),
      ooo: 0,
    });
    expect(replies).toMatchObject({ total: 2, positive: 1, negative: 1, neutral: 1 });
    expect(channels?.email).toMatchObject({ sent: leadsWith('email_sent'), opened: leadsWith('email_opened') });
    expect((channels?.email as Record<string, unknown>).opened).toBe(2);
    expect(channels?.linkedin).toMatchObject({
      requests: leadsWith('connection_requested'),
      accepted: leadsWith('connection_accepted'),
    });
    expect((channels?.linkedin as Record<string, unknown>).accepted).toBe(1);
    // The other reports, on the same data the engine wrote, agree with the analysis.
    const daily = await ok<{ days: Array<Record<string, number>> }>('GET', `/v1/campaigns/${campaignId}/daily-stats`);
    const sum = (column: string) => daily.days.reduce((total, day) => total + (day[column] ?? 0), 0);
    expect({
      emails_sent: sum('emails_sent'),
      emails_opened: sum('emails_opened'),
      connection_requests: sum('connection_requests'),
      connections_accepted: sum('connections_accepted'),
      replies: sum('replies'),
      positive_replies: sum('positive_replies'),
      meetings: sum('meetings'),
    }).toEqual({
      emails_sent: (channels?.email as Record<string, unknown>).sent,
      emails_opened: (channels?.email as Record<string, unknown>).opened,
      connection_requests: (channels?.linkedin as Record<string, unknown>).requests,
      connections_accepted: (channels?.linkedin as Record<string, unknown>).accepted,
      replies: funnel?.replied,
      positive_replies: funnel?.positive,
      meetings: funnel?.meetings,
    });
    const funnelRows = await ok<{
      steps: Array<{ step_id: number; type: string; reached: number; completed: number }>;
    }>('GET', `/v1/campaigns/${campaignId}/step-funnel`);
    const stepOne = funnelRows.steps.find((row) => row.step_id === 1);
    expect(stepOne).toMatchObject({ reached: 3, completed: 3 });
    const ranStep = (id: number) => events.filter((e) => e.step_id === id).length;
    // A conditional has no event of its own: it runs at its due time.
    for (const row of funnelRows.steps.filter((r) => r.type !== 'conditional')) {
      expect([row.step_id, row.completed]).toEqual([row.step_id, ranStep(row.step_id)]);
    }
    const senders = await ok<{ senders: Array<{ account_id: string; sent: number }> }>(
      'GET',
      `/v1/campaigns/${campaignId}/senders/breakdown`,
    );
    const sentBy = (accountId: string) =>
      new Set(
        events
          .filter(
            (e) =>
              e.account_id === accountId &&
              ['email_sent', 'connection_requested', 'linkedin_message_sent'].includes(e.kind),
          )
          .map((e) => `${e.enrolment_id}:${e.kind}`),
      ).size;
    for (const row of senders.senders)
      expect([row.account_id, row.sent]).toEqual([row.account_id, sentBy(row.account_id)]);
    expect(senders.senders.map((row) => row.sent).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // Lena, with no accepted connection, took the `no` branch: a second email.
    const lenaSteps = events
      .filter((e) => e.enrolment_id === lena.enrolment && e.step_id !== null)
      .map((e) => e.step_id);
    expect(lenaSteps).toEqual([1, 2, 3, 6]);
  });
});
