/**
 * A step whose message would render past 100,000 characters for one lead (decision
 * 0005): that lead's step is not sent and stays due, with one warning naming it (not one
 * per round), and every other lead's steps run; it is tried again when its campaign or its
 * lead changes or after `tooLongRetryMs`, not at every round. The renderer threw from inside
 * the round before, so one lead's data stopped every campaign of every organization at each
 * tick.
 */
import { expect, it } from 'vitest';
import { sandboxChannel } from '../../src/engine/channel.ts';
import { createEngine } from '../../src/engine/engine.ts';
import type { LogEntry } from '../../src/http/logger.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { createCampaign, demoAccounts } from '../support/campaign-setup.ts';
import { activate, assignSenders, engineHarness, enrolledLead, later, noDeliveries } from './engine-setup.ts';
import { tooLongRetryMs } from '../../src/engine/run-steps.ts';
import type { Store } from '../../src/store/types.ts';

/**
 * A memory store counting its transactions (a step tried opens one), an engine logging to
 * `lines`, and a campaign (not yet active) whose step renders too long for a long `notes`.
 */
let transactions = 0;
async function setup() {
  const inner = createMemoryStore();
  const store: Store = { ...inner, transaction: (work) => ((transactions += 1), inner.transaction(work)) };
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
  return { store, h, engine, lines, campaignId };
}

it('leaves the step of a lead whose message renders too long due, and runs the others', async () => {
  const { store, h, engine, lines, campaignId } = await setup();
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
  // Told once, and not tried again at the next round: nothing it renders from has changed.
  transactions = 0;
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  expect(transactions).toBe(0);
  expect(lines).toHaveLength(1);
  const queue = await h.api.call<{ queue: Array<{ lead_id: string }> }>('GET', `/v1/campaigns/${campaignId}/queue`);
  expect(queue.status).toBe(200);
  expect(queue.body.queue.map((item) => item.lead_id)).toContain(long.lead.id);
  // The lead's data fixed: its edit ends the wait, and the step runs at the next round (it
  // waited out `tooLongRetryMs` before, the lead's edit unseen).
  const fixed = await h.api.call('PATCH', `/v1/leads/${long.lead.id}`, { body: { custom_fields: { notes: 'brief' } } });
  expect(fixed.status).toBe(200);
  expect(await engine.runDue()).toEqual({ steps_run: 1, deliveries_attempted: 0 });
  expect((await store.activity.listForEnrolment(long.enrolment.id)).map((e) => e.kind)).toEqual(['email_sent']);
  expect(lines).toHaveLength(1);
});

it('tries such a step once after a lead edit that leaves it too long, then waits again', async () => {
  const { h, engine, lines, campaignId } = await setup();
  const long = await enrolledLead(h.api, campaignId, { custom_fields: { notes: 'n'.repeat(20) } });
  await activate(h.api, campaignId);
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  const edited = await h.api.call('PATCH', `/v1/leads/${long.lead.id}`, {
    body: { custom_fields: { notes: 'n'.repeat(30) } },
  });
  expect(edited.status).toBe(200);
  transactions = 0;
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  expect(transactions).toBe(1);
  transactions = 0;
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  expect(transactions).toBe(0);
  // The same step: told once.
  expect(lines).toHaveLength(1);
});

it("waits out tooLongRetryMs for a change neither the campaign nor the lead shows (an AI field's fallback)", async () => {
  const { store, h, engine, campaignId } = await setup();
  const field = await h.api.call<{ ai_field: { id: string } }>('POST', `/v1/campaigns/${campaignId}/ai-fields`, {
    body: { field_name: 'notes', ai_instructions: 'Notes on the lead.', fallback_value: 'n'.repeat(20) },
  });
  expect(field.status).toBe(201);
  // No `notes` of its own: the AI field's fallback fills it, too long.
  const lead = await enrolledLead(h.api, campaignId);
  await activate(h.api, campaignId);
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  const shortened = await h.api.call('PATCH', `/v1/campaigns/${campaignId}/ai-fields/${field.body.ai_field.id}`, {
    body: { fallback_value: 'brief' },
  });
  expect(shortened.status).toBe(200);
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  h.clock.advanceTo(later(h.clock, tooLongRetryMs));
  expect(await engine.runDue()).toEqual({ steps_run: 1, deliveries_attempted: 0 });
  expect((await store.activity.listForEnrolment(lead.enrolment.id)).map((e) => e.kind)).toEqual(['email_sent']);
});

it('tries such a step again at once when its campaign changes (its text may have)', async () => {
  const { store, h, engine, lines, campaignId } = await setup();
  const long = await enrolledLead(h.api, campaignId, { custom_fields: { notes: 'n'.repeat(20) } });
  await activate(h.api, campaignId);
  expect(await engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
  expect(lines).toHaveLength(1);
  const edited = await h.api.call('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/1`, {
    body: { updates: { content: 'Hi {notes}' } },
  });
  expect(edited.status).toBe(200);
  expect(await engine.runDue()).toEqual({ steps_run: 1, deliveries_attempted: 0 });
  expect((await store.activity.listForEnrolment(long.enrolment.id)).map((e) => e.kind)).toEqual(['email_sent']);
});
