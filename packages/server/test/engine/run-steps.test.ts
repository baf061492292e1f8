import { beforeEach, expect, it } from 'vitest';
import { bucket } from '../../src/domain/arm.ts';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine } from '../../src/engine/engine.ts';
import { recordEngagement } from '../../src/engine/engagement.ts';
import { findSandboxLead } from '../../src/engine/sandbox-lead.ts';
import type { ActivityEventRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, emailSequence, interceptStore, q4Sequence } from '../support/campaign-setup.ts';
import {
  activate,
  assignSenders,
  days,
  engineHarness,
  enrolledLead,
  present,
  type EngineHarness,
  later,
  noDeliveries,
  startOfTest,
} from './engine-setup.ts';

const t0 = Date.parse(startOfTest);
const at = (offsetDays: number) => new Date(t0 + days(offsetDays)).toISOString();

describeBackends('campaign engine', (store) => {
  let h: EngineHarness;
  let campaignId: string;

  beforeEach(async () => {
    h = await engineHarness(store());
    campaignId = await createCampaign(h.api, { name: 'Engine', sequence: q4Sequence() });
    const accounts = await demoAccounts(h.api);
    await assignSenders(h.api, campaignId, [accounts.email.id, accounts.linkedin.id]);
    const field = await h.api.call('POST', `/v1/campaigns/${campaignId}/ai-fields`, {
      body: {
        field_name: 'icebreaker',
        ai_instructions: 'One line on their latest post.',
        fallback_value: 'Loved your post.',
      },
    });
    expect(field.status).toBe(201);
  });

  const eventsOf = async (s: Store, enrolmentId: string) => s.activity.listForEnrolment(enrolmentId);
  const stepsRun = (events: ActivityEventRecord[]) =>
    events.filter((e) => e.step_id !== null).map((e) => [e.step_id, e.kind, e.occurred_at]);

  it('walks each lead through the sequence at its due times, branching on the accepted connection', async () => {
    const accepted = await enrolledLead(h.api, campaignId, { first_name: 'Maya' });
    const ignored = await enrolledLead(h.api, campaignId, { first_name: 'Omar' });
    await activate(h.api, campaignId);

    expect(await h.engine.runDue()).toEqual({ steps_run: 2, deliveries_attempted: 0 });
    await h.engine.advanceTo(later(h.clock, days(3)));
    const found = await findSandboxLead(store(), h.api.organizationId, campaignId, accepted.lead.id);
    await recordEngagement(store(), found, { kind: 'connection_accepted' }, h.clock.now().toISOString());
    const round = await h.engine.advanceTo(later(h.clock, days(7)));
    expect(round.steps_run).toBe(2);

    const iso = (value: string) => new Date(value).toISOString();
    const normalise = (rows: unknown[][]) => rows.map(([id, kind, time]) => [id, kind, iso(time as string)]);
    expect(normalise(stepsRun(await eventsOf(store(), accepted.enrolment.id)))).toEqual([
      [1, 'email_sent', at(0)],
      [2, 'profile_viewed', at(1)],
      [3, 'connection_requested', at(2)],
      [5, 'linkedin_message_sent', at(6)],
    ]);
    expect(normalise(stepsRun(await eventsOf(store(), ignored.enrolment.id)))).toEqual([
      [1, 'email_sent', at(0)],
      [2, 'profile_viewed', at(1)],
      [3, 'connection_requested', at(2)],
      [6, 'email_sent', at(7)],
    ]);
    for (const { enrolment } of [accepted, ignored]) {
      expect((await store().enrolments.find(campaignId, enrolment.lead_id))?.status).toBe('completed');
    }
  });

  it('records each message rendered for its lead, on the account that sent it', async () => {
    const { lead } = await enrolledLead(h.api, campaignId, { first_name: 'Maya', company: 'Acme Robotics' });
    await activate(h.api, campaignId);
    await h.engine.advanceTo(later(h.clock, days(2)));
    const { items } = await store().messages.listForCampaign(campaignId, { lead_id: lead.id, limit: 10, offset: 0 });
    const accounts = await demoAccounts(h.api);
    expect(items.map((m) => [m.step_id, m.channel, m.account_id, m.subject])).toEqual([
      [1, 'email', accounts.email.id, 'Maya, quick question about Acme Robotics'],
      [3, 'linkedin', accounts.linkedin.id, null],
    ]);
    expect(items[0]?.body).toContain('Hi Maya,');
    expect(items[0]?.body).toContain('Worth a call about Acme Robotics?');
    // No model is configured: an AI field renders its fallback value.
    expect(items[0]?.body).toContain('Loved your post.');
    expect(items[1]?.body).toBe('Hi Maya, happy to connect.');
    const [sent] = (await eventsOf(store(), present(items[0]).enrolment_id)).filter((e) => e.kind === 'email_sent');
    expect(sent?.data.placeholders).toEqual(
      expect.arrayContaining([{ name: 'first_name', source: 'lead', fill: 'filled' }]),
    );
    expect(sent?.data).toMatchObject({ position: '0', next_step_id: 2 });
  });

  it('moves a lead from not_contacted to active with its first message', async () => {
    const { enrolment } = await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    expect((await store().enrolments.find(campaignId, enrolment.lead_id))?.status).toBe('not_contacted');
    await h.engine.runDue();
    expect(await store().enrolments.find(campaignId, enrolment.lead_id)).toMatchObject({
      status: 'active',
      variation: 'a',
    });
  });

  it('splits new leads by traffic_split while A/B testing is on, each arm starting on its own first step', async () => {
    const enrolled = [];
    for (let i = 0; i < 30; i += 1) enrolled.push(await enrolledLead(h.api, campaignId, {}));
    const ab = await h.api.call('POST', `/v1/campaigns/${campaignId}/ab-testing`, {
      body: { enabled: true, traffic_split: 40 },
    });
    expect(ab.status).toBe(200);
    await activate(h.api, campaignId);
    await h.engine.runDue();
    const arms = { a: 0, b: 0 };
    for (const { enrolment } of enrolled) {
      const expected = bucket(enrolment.id) < 40 ? 'a' : 'b';
      const stored = await store().enrolments.find(campaignId, enrolment.lead_id);
      expect(stored?.variation).toBe(expected);
      arms[expected] += 1;
      const [first] = await eventsOf(store(), enrolment.id);
      expect(first?.step_id).toBe(expected === 'a' ? 1 : 7);
      expect(first?.variation).toBe(expected);
    }
    expect(arms.a).toBeGreaterThan(0);
    expect(arms.b).toBeGreaterThan(0);

    // Turning the test off gives later leads arm a; leads that have an arm keep it.
    await h.api.call('POST', `/v1/campaigns/${campaignId}/ab-testing`, { body: { enabled: false } });
    const late = await enrolledLead(h.api, campaignId, {});
    await h.engine.advanceTo(later(h.clock, days(1)));
    expect((await store().enrolments.find(campaignId, late.lead.id))?.variation).toBe('a');
    for (const { enrolment } of enrolled.slice(0, 5)) {
      const stored = await store().enrolments.find(campaignId, enrolment.lead_id);
      expect(stored?.variation).toBe(bucket(enrolment.id) < 40 ? 'a' : 'b');
    }
  });

  it('after a promotion, sends new leads the promoted steps and lets enrolled leads go on where they are', async () => {
    const enrolled = [];
    for (let i = 0; i < 12; i += 1) enrolled.push(await enrolledLead(h.api, campaignId));
    await h.api.call('POST', `/v1/campaigns/${campaignId}/ab-testing`, { body: { enabled: true, traffic_split: 50 } });
    await activate(h.api, campaignId);
    await h.engine.runDue();
    const onB = enrolled.find(({ enrolment }) => bucket(enrolment.id) >= 50);
    expect(onB).toBeDefined();
    const promoted = await h.api.call('POST', `/v1/campaigns/${campaignId}/ab-testing/promote`, {
      body: { variation: 'b' },
    });
    expect(promoted.status).toBe(200);
    const late = await enrolledLead(h.api, campaignId);
    await h.engine.advanceTo(later(h.clock, days(1)));
    // The new lead gets arm a, whose steps are now b's (IDs 7 on).
    const [first] = await eventsOf(store(), late.enrolment.id);
    expect(first).toMatchObject({ step_id: 7, variation: 'a', kind: 'email_sent' });
    // A lead of arm b goes on with its next step, a day after its first.
    const trail = (await eventsOf(store(), present(onB).enrolment.id)).map((e) => e.step_id);
    expect(trail).toEqual([7, 8]);
  });

  it("keeps to each account's daily limit and sends the rest on the next day", async () => {
    const accounts = await demoAccounts(h.api);
    await store().accounts.update(h.api.organizationId, accounts.email.id, { daily_limit: 3 });
    for (let i = 0; i < 5; i += 1) await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    await h.engine.runDue();
    const sent = async () => (await store().activity.listForCampaign(campaignId, { kinds: ['email_sent'] })).length;
    expect(await sent()).toBe(3);
    await h.engine.runDue();
    expect(await sent()).toBe(3);
    await h.engine.advanceTo(later(h.clock, days(1)));
    expect(await sent()).toBe(5);
  });

  it("reads none of a campaign's leads in a round once its senders' daily budget is spent", async () => {
    // A round read every lead and event of every active campaign at each tick, although a
    // large campaign's senders spend their daily limits in the first rounds of the day: 300 ms
    // a second for 20,000 leads on PostgreSQL, with nothing to send.
    const accounts = await demoAccounts(h.api);
    await store().accounts.update(h.api.organizationId, accounts.email.id, { daily_limit: 2 });
    for (let i = 0; i < 4; i += 1) await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    await store().accounts.update(h.api.organizationId, accounts.linkedin.id, { status: 'disconnected' });
    let reads = 0;
    let senderReads = 0;
    const counted = interceptStore(store(), {
      enrolments: (real) => ({
        listDue: (id, at) => {
          reads += 1;
          return real.listDue(id, at);
        },
      }),
      accounts: (real) => ({
        getMany: (organizationId, ids, options) => {
          // The round's reads; each message step also locks its account to count it again
          // (two engines on one database), which is not a read of the campaign's senders.
          if (!options?.forUpdate) senderReads += 1;
          return real.getMany(organizationId, ids, options);
        },
      }),
    });
    const engine = createEngine({ store: counted, clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
    expect((await engine.runDue()).steps_run).toBe(2);
    // One pass: with the budget spent, no second pass reads the campaign again; its senders
    // are read once, before the leads.
    expect(reads).toBe(1);
    expect(senderReads).toBe(1);
    expect((await engine.runDue()).steps_run).toBe(0);
    expect(reads).toBe(1);
    // The next day the budget is back, and the two other leads get their first step.
    h.clock.advanceTo(later(h.clock, days(1)));
    expect((await engine.runDue()).steps_run).toBe(2);
    expect(reads).toBe(2);
    const sent = await store().activity.listForCampaign(campaignId, { kinds: ['email_sent'] });
    expect(new Set(sent.map((event) => event.enrolment_id)).size).toBe(4);
  });

  it("sends a lead's first step of arm b from an account of that step's channel, and counts what it sent", async () => {
    // The round chose the account (and the budget it counted) for variation_a's first step,
    // which the queue shows for a lead without an arm: arm b's LinkedIn profile view went out
    // through the email account, and counted as an email against its daily limit.
    const ab = await createCampaign(h.api, {
      name: 'Arms on two channels',
      sequence: {
        variation_a: [{ id: 1, type: 'email', subject: 'Hi', content: 'Hello {first_name}.', delay: 0 }],
        variation_b: [
          { id: 7, type: 'view_profile', delay: 0 },
          { id: 8, type: 'email', subject: 'Hi', content: 'Hello {first_name}.', delay: 0 },
        ],
      },
    });
    const accounts = await demoAccounts(h.api);
    await assignSenders(h.api, ab, [accounts.email.id, accounts.linkedin.id]);
    await store().accounts.update(h.api.organizationId, accounts.email.id, { daily_limit: 1 });
    const leads = [await enrolledLead(h.api, ab, {}), await enrolledLead(h.api, ab, {})];
    const split = await h.api.call('POST', `/v1/campaigns/${ab}/ab-testing`, {
      body: { enabled: true, traffic_split: 0 },
    });
    expect(split.status).toBe(200);
    await activate(h.api, ab);
    // Both profile views, then one email (the limit): three steps in the round.
    expect((await h.engine.runDue()).steps_run).toBe(3);
    const trails = await Promise.all(leads.map(async ({ enrolment }) => eventsOf(store(), enrolment.id)));
    for (const trail of trails) {
      expect(trail[0]).toMatchObject({
        step_id: 7,
        kind: 'profile_viewed',
        channel: 'linkedin',
        account_id: accounts.linkedin.id,
      });
    }
    const emails = trails.flat().filter((event) => event.kind === 'email_sent');
    expect(emails).toEqual([expect.objectContaining({ step_id: 8, channel: 'email', account_id: accounts.email.id })]);
  });

  it("keeps to an account's daily limit across the campaigns it sent for that day", async () => {
    // The limit is the account's (SenderAccount.daily_limit); the round counted the
    // campaign's own messages, so an account moved to another campaign sent its limit again.
    const accounts = await demoAccounts(h.api);
    await store().accounts.update(h.api.organizationId, accounts.email.id, { daily_limit: 2 });
    for (let i = 0; i < 2; i += 1) await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    expect((await h.engine.runDue()).steps_run).toBe(2);
    const off = await h.api.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { is_active: false } });
    expect(off.status).toBe(200);

    const next = await createCampaign(h.api, { name: 'Afternoon', sequence: emailSequence(1) });
    await assignSenders(h.api, next, [accounts.email.id]);
    for (let i = 0; i < 2; i += 1) await enrolledLead(h.api, next, {});
    await activate(h.api, next);
    expect((await h.engine.runDue()).steps_run).toBe(0);
    await h.engine.advanceTo(later(h.clock, days(1)));
    expect(await store().activity.listForCampaign(next, { kinds: ['email_sent'] })).toHaveLength(2);
  });

  it('runs a step once when two engines race for it', async () => {
    for (let i = 0; i < 6; i += 1) await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    const second = createEngine({ store: store(), clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
    const [one, two] = await Promise.all([h.engine.runDue(), second.runDue()]);
    expect(one.steps_run + two.steps_run).toBe(6);
    const events = await store().activity.listForCampaign(campaignId);
    expect(events).toHaveLength(6);
    const { total } = await store().messages.listForCampaign(campaignId, { limit: 100, offset: 0 });
    expect(total).toBe(6);
  });

  it("keeps to an account's daily limit when two engines (two servers on one database) send on it at once", async () => {
    // Each engine counts the account's messages before its round; under the account's lock
    // a step counts again, and sees what the other engine has sent meanwhile.
    const accounts = await demoAccounts(h.api);
    await store().accounts.update(h.api.organizationId, accounts.email.id, { daily_limit: 3 });
    for (let i = 0; i < 10; i += 1) await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    const second = createEngine({ store: store(), clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
    const [one, two] = await Promise.all([h.engine.runDue(), second.runDue()]);
    expect(one.steps_run + two.steps_run).toBe(3);
    expect(await store().activity.listForCampaign(campaignId, { kinds: ['email_sent'] })).toHaveLength(3);
  });

  it('sends nothing for a draft campaign, and shows in the queue what it runs next', async () => {
    const { enrolment } = await enrolledLead(h.api, campaignId, {});
    expect(await h.engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
    await activate(h.api, campaignId);
    await h.engine.runDue();
    const queue = await h.api.call<{ queue: Array<{ step_id: number; due_at: string }> }>(
      'GET',
      `/v1/campaigns/${campaignId}/queue`,
    );
    expect(queue.body.queue.map((item) => [item.step_id, new Date(item.due_at).toISOString()])).toEqual([[2, at(1)]]);
    await h.engine.advanceTo(new Date(at(1)));
    const [, second] = await eventsOf(store(), enrolment.id);
    expect(second).toMatchObject({ step_id: 2, kind: 'profile_viewed' });
  });
});
