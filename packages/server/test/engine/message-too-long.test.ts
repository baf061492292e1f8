/**
 * A step whose message would render past 100,000 characters for one lead (decision
 * 0005): that lead's step is not sent and stays due, with one warning naming it (not one
 * per round), and every other lead's steps run. The renderer threw from inside the round before, so one lead's
 * data stopped every campaign of every organization at each tick.
 */
import { expect, it } from 'vitest';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { LogEntry } from '../../src/http/logger.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { createCampaign, demoAccounts } from '../support/campaign-setup.ts';
import { activate, assignSenders, engineHarness, enrolledLead, noDeliveries } from './engine-setup.ts';

it('leaves the step of a lead whose message renders too long due, and runs the others', async () => {
  const store = createMemoryStore();
  const h = await engineHarness(store);
  const lines: LogEntry[] = [];
  const engine = createEngine({
    store,
    clock: h.clock,
    channel: sandboxChannel,
    deliveries: noDeliveries,
    logger: { log: (entry) => lines.push(entry) },
  });
  // 10,000 placeholders: a value of 5 characters renders 50,000, one of 20 200,000 (past 100,000).
  const campaignId = await createCampaign(h.api, {
    name: 'Notes',
    sequence: {
      variation_a: [{ id: 1, type: 'email', subject: 'Notes', content: '{notes}'.repeat(10_000), delay: 0 }],
    },
  });
  const accounts = await demoAccounts(h.api);
  await assignSenders(h.api, campaignId, [accounts.email.id]);
  const short = await enrolledLead(h.api, campaignId, { custom_fields: { notes: 'short' } });
  const long = await enrolledLead(h.api, campaignId, { custom_fields: { notes: 'n'.repeat(20) } });
  await activate(h.api, campaignId);

  expect(await engine.runDue()).toEqual({ steps_run: 1, deliveries_attempted: 0 });
  expect((await store.activity.listForEnrolment(short.enrolment.id)).map((e) => e.kind)).toEqual(['email_sent']);
  expect(await store.activity.listForEnrolment(long.enrolment.id)).toEqual([]);
  expect(lines).toEqual([
    {
      level: 'warn',
      message: 'step not sent: its message renders too long',
      campaign_id: campaignId,
      lead_id: long.lead.id,
      step_id: 1,
      error: 'the rendered text would be longer than 100,000 characters',
    },
  ]);
  // Tried again at the next round (the lead or the text may have changed), told once.
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  expect(lines).toHaveLength(1);
  const queue = await h.api.call<{ queue: Array<{ lead_id: string }> }>('GET', `/v1/campaigns/${campaignId}/queue`);
  expect(queue.status).toBe(200);
  expect(queue.body.queue.map((item) => item.lead_id)).toContain(long.lead.id);
});
