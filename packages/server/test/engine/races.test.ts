/**
 * What happens at once to one sequence lead: two replies (section 6 rule 4 must still hold),
 * and a reply arriving while a round of the engine is about to send the lead's next step.
 */
import { beforeEach, expect, it } from 'vitest';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine } from '../../src/engine/engine.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, emailSequence, interceptStore } from '../support/campaign-setup.ts';
import {
  activate,
  assignSenders,
  days,
  engineHarness,
  type EngineHarness,
  enrolledLead,
  later,
  noDeliveries,
} from './engine-setup.ts';

describeBackends('one lead, two things at once', (store) => {
  let h: EngineHarness;
  let campaignId: string;
  let lead: Awaited<ReturnType<typeof enrolledLead>>;

  beforeEach(async () => {
    h = await engineHarness(store());
    campaignId = await createCampaign(h.api, { name: 'Races', sequence: emailSequence(2) });
    await assignSenders(h.api, campaignId, [(await demoAccounts(h.api)).email.id]);
    lead = await enrolledLead(h.api, campaignId);
    await activate(h.api, campaignId);
    await h.engine.runDue();
  });

  const reply = (message: string) =>
    h.api.call<{ reply: { delivery: unknown } }>('POST', `/v1/sandbox/campaigns/${campaignId}/replies`, {
      body: { lead_id: lead.lead.id, channel: 'email', message },
    });

  it('delivers one event when two replies of a lead arrive at once', async () => {
    const webhook = await h.api.call('POST', `/v1/campaigns/${campaignId}/webhooks`, {
      body: { webhook_url: 'https://hooks.example.com/ocs' },
    });
    expect(webhook.status).toBe(201);
    const answers = await Promise.all([reply('Not now, thanks.'), reply('Maybe next quarter.')]);
    expect(answers.map((a) => a.status)).toEqual([201, 201]);
    expect(answers.filter((a) => a.body.reply.delivery !== null)).toHaveLength(1);
    const { total } = await store().deliveries.listForCampaign(campaignId, { limit: 10, offset: 0 });
    expect(total).toBe(1);
  });

  it('sends no step after a reply that came while the round was deciding', async () => {
    // The engine reads the campaign's leads due now; the reply commits right after that read.
    let replied = false;
    const racing = interceptStore(store(), {
      enrolments: (inner) => ({
        async listDue(id, at) {
          const rows = await inner.listDue(id, at);
          if (!replied) {
            replied = true;
            expect((await reply('Please stop emailing me.')).status).toBe(201);
          }
          return rows;
        },
      }),
    });
    const engine = createEngine({ store: racing, clock: h.clock, channel: sandboxChannel, deliveries: noDeliveries });
    h.clock.advanceTo(later(h.clock, days(2)));
    expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
    expect(replied).toBe(true);
    const events = await store().activity.listForEnrolment(lead.enrolment.id);
    expect(events.map((e) => e.kind)).toEqual(['email_sent', 'reply_received']);
    expect((await store().enrolments.find(campaignId, lead.lead.id))?.status).toBe('paused');
  });
});
