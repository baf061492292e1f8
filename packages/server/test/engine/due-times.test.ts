/**
 * The engine's schedule (decision 0002, "Due times"): a round reads the leads whose next step
 * may be due, not the whole campaign, and a change that brings a step earlier is seen. Counted
 * as the enrolment rows the engine read (`EnrolmentStore.listDue`, `ActivityStore.listEnrolments`).
 */
import { beforeEach, expect, it } from 'vitest';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { Sequence } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { describeBackends } from '../support/backends.ts';
import { bucket } from '../../src/domain/arm.ts';
import { createCampaign, demoAccounts, emailSequence, insertLead, interceptStore } from '../support/campaign-setup.ts';
import { enrolmentRecord } from '../support/lead-fixtures.ts';
import {
  activate,
  assignSenders,
  days,
  engineHarness,
  enrolledLead,
  type EngineHarness,
  later,
  noDeliveries,
} from './engine-setup.ts';

describeBackends('the engine reads what is due', (store) => {
  let h: EngineHarness;
  let campaignId: string;
  /** Enrolment rows the engine read. */
  let rowsRead: number;
  let engine: ReturnType<typeof createEngine>;

  const start = async (sequence: Sequence, channels: Array<'email' | 'linkedin'> = ['email']) => {
    campaignId = await createCampaign(h.api, { name: 'Schedule', sequence });
    const accounts = await demoAccounts(h.api);
    await assignSenders(
      h.api,
      campaignId,
      channels.map((channel) => accounts[channel].id),
    );
  };

  beforeEach(async () => {
    h = await engineHarness(store());
    rowsRead = 0;
    const counted: Store = interceptStore(store(), {
      enrolments: (real) => ({
        async listDue(id, at) {
          const rows = await real.listDue(id, at);
          rowsRead += rows.length;
          return rows;
        },
      }),
      // What the engine read before the schedule: every enrolment of the campaign.
      activity: (real) => ({
        async listEnrolments(id) {
          const rows = await real.listEnrolments(id);
          rowsRead += rows.length;
          return rows;
        },
      }),
    });
    engine = createEngine({ store: counted, clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
  });

  it('reads none of the leads waiting out a delay, and each lead again when its step comes due', async () => {
    await start(emailSequence(2));
    for (let i = 0; i < 12; i += 1) await enrolledLead(h.api, campaignId, { email: `wait-${i}@example.com` });
    await activate(h.api, campaignId);
    expect((await engine.runDue()).steps_run).toBe(12);
    rowsRead = 0;
    // Their second step is two days away: the rounds meanwhile read nobody.
    for (const hours of [1, 5, 30]) {
      h.clock.advanceTo(later(h.clock, hours * 3_600_000));
      expect((await engine.runDue()).steps_run).toBe(0);
    }
    expect(rowsRead).toBe(0);
    h.clock.advanceTo(later(h.clock, days(2)));
    expect((await engine.runDue()).steps_run).toBe(12);
    expect(rowsRead).toBe(12);
  });

  it('sends a step at the earlier time a sequence edit gives it', async () => {
    await start(emailSequence(2));
    const { enrolment } = await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    expect((await engine.runDue()).steps_run).toBe(1);
    // The round wrote the lead's next due time: two days away.
    h.clock.advanceTo(later(h.clock, 3_600_000));
    expect((await engine.runDue()).steps_run).toBe(0);
    // Step 2 now waits no day at all.
    const edited = await h.api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/2`, {
      body: { updates: { delay: 0 } },
    });
    expect(edited.status).toBe(200);
    expect((await engine.runDue()).steps_run).toBe(1);
    const sent = await store().activity.listForEnrolment(enrolment.id, { kinds: ['email_sent'] });
    expect(sent.map((event) => event.step_id)).toEqual([1, 2]);
  });

  it('sends at once a first step that turning A/B testing off made due', async () => {
    // Arm b opens with a conditional (its branches five days on); arm a with an email.
    const sequence: Sequence = {
      variation_a: [{ id: 1, type: 'email', subject: 'A for {first_name}', content: 'a', delay: 0 }],
      variation_b: [
        {
          id: 10,
          type: 'conditional',
          delay: 0,
          branches: {
            yes: [{ id: 11, type: 'email', subject: 'B yes', content: 'y', delay: 5 }],
            no: [{ id: 12, type: 'email', subject: 'B no', content: 'n', delay: 5 }],
          },
        },
      ],
    };
    await start(sequence, ['email', 'linkedin']);
    const ab = await h.api.call('POST', `/v1/campaigns/${campaignId}/ab-testing`, {
      body: { enabled: true, traffic_split: 50 },
    });
    expect(ab.status).toBe(200);
    // A lead drawn into arm b.
    const { lead } = await insertLead(h.api, {});
    let id: string;
    do id = crypto.randomUUID();
    while (bucket(id) < 50);
    await store().enrolments.insert(enrolmentRecord(lead, campaignId, { id }));
    await activate(h.api, campaignId);
    expect((await engine.runDue()).steps_run).toBe(0);
    expect(
      (await h.api.call('POST', `/v1/campaigns/${campaignId}/ab-testing`, { body: { enabled: false } })).status,
    ).toBe(200);
    h.clock.advanceTo(later(h.clock, 60_000));
    expect((await engine.runDue()).steps_run).toBe(1);
    const sent = await store().activity.listForEnrolment(id, { kinds: ['email_sent'] });
    expect(sent.map((event) => event.step_id)).toEqual([1]);
  });

  it('never writes bounds worked out from a sequence an edit replaced while the round ran', async () => {
    await start(emailSequence(2));
    const { enrolment } = await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    expect((await engine.runDue()).steps_run).toBe(1);
    // The next round lists the campaigns; the edit (step 2 waits no day) commits right after.
    let edited = false;
    const racing = interceptStore(store(), {
      campaigns: (real) => ({
        async listAllActive() {
          const rows = await real.listAllActive();
          if (!edited) {
            edited = true;
            const answer = await h.api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/2`, {
              body: { updates: { delay: 0 } },
            });
            expect(answer.status).toBe(200);
          }
          return rows;
        },
      }),
    });
    const late = createEngine({ store: racing, clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
    h.clock.advanceTo(later(h.clock, 60_000));
    const first = (await late.runDue()).steps_run;
    h.clock.advanceTo(later(h.clock, 60_000));
    // Sent by that round or the next, not two days later.
    expect(first + (await engine.runDue()).steps_run).toBe(1);
    const sent = await store().activity.listForEnrolment(enrolment.id, { kinds: ['email_sent'] });
    expect(sent.map((event) => event.step_id)).toEqual([1, 2]);
  });

  it('takes the branch of a connection accepted after a round read the lead, at the next round', async () => {
    const sequence: Sequence = {
      variation_a: [
        { id: 1, type: 'linkedin_connection', message: 'hi', delay: 0 },
        {
          id: 2,
          type: 'conditional',
          delay: 1,
          branches: {
            yes: [{ id: 3, type: 'linkedin_message', message: 'thanks', delay: 0 }],
            no: [{ id: 4, type: 'email', subject: 's', content: 'c', delay: 3 }],
          },
        },
      ],
    };
    await start(sequence, ['email', 'linkedin']);
    const { enrolment } = await enrolledLead(h.api, campaignId, {
      linkedin_profile: 'https://www.linkedin.com/in/maya-branch',
    });
    await activate(h.api, campaignId);
    expect((await engine.runDue()).steps_run).toBe(1);
    const [requested] = await store().activity.listForEnrolment(enrolment.id);
    if (!requested) throw new Error('no connection request');
    const conditionalDue = Date.parse(requested.occurred_at) + days(1);
    h.clock.advanceTo(new Date(conditionalDue));
    // The acceptance (stamped a moment before the conditional's time) commits after the round
    // read the lead's events: that round walks the `no` branch.
    let accepted = false;
    const racing = interceptStore(store(), {
      activity: (real) => ({
        async listForEnrolments(ids) {
          const rows = await real.listForEnrolments(ids);
          if (!accepted) {
            accepted = true;
            await store().activity.insert({
              ...requested,
              id: crypto.randomUUID(),
              kind: 'connection_accepted',
              step_id: null,
              occurred_at: new Date(conditionalDue - 5).toISOString(),
              data: {},
            });
          }
          return rows;
        },
      }),
    });
    const late = createEngine({ store: racing, clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
    expect((await late.runDue()).steps_run).toBe(0);
    h.clock.advanceTo(later(h.clock, 60_000));
    expect((await engine.runDue()).steps_run).toBe(1);
    const events = await store().activity.listForEnrolment(enrolment.id, { kinds: ['linkedin_message_sent'] });
    expect(events.map((event) => event.step_id)).toEqual([3]);
  });

  it('reads each lead about once per step while the sandbox clock advances over spread-out enrolments', async () => {
    await start(emailSequence(3));
    // 30 leads enrolled over 10 hours: 30 due times for each step, 90 stops of the clock.
    for (let i = 0; i < 30; i += 1) {
      await enrolledLead(h.api, campaignId, { email: `spread-${i}@example.com` });
      if (i === 0) await activate(h.api, campaignId);
      h.clock.advanceTo(later(h.clock, 20 * 60_000));
    }
    rowsRead = 0;
    const round = await engine.advanceTo(later(h.clock, days(6)));
    expect(round.steps_run).toBe(90);
    // Reading the campaign at every stop would be 90 stops x 30 leads, twice; a lead is read
    // when one of its steps comes due (by the stop's look-ahead, then by the round).
    expect(rowsRead).toBeLessThanOrEqual(2 * 90 + 30);
  });
});
