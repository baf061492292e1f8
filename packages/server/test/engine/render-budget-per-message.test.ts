/**
 * The preview and the engine agree on which messages are too long to send (decision 0005,
 * "One budget per message"): an email's subject and content share one budget of 100,000
 * characters in the engine, as they do in a preview of its step (`step_id`). Before, the engine
 * gave each text a budget of its own, so a step whose subject and content each rendered 60,000
 * characters was sent, though its preview answered 400. And a lead whose step renders too
 * long, edited to shorter values, has its step sent at the next round, not `tooLongRetryMs`
 * later: the round reads the lead's `updated_at` with its enrolment, on every store.
 */
import { beforeEach, expect, it } from 'vitest';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts } from '../support/campaign-setup.ts';
import { activate, assignSenders, engineHarness, enrolledLead, type EngineHarness } from './engine-setup.ts';

describeBackends('one render budget per message, in the engine and the preview', (store) => {
  let h: EngineHarness;
  let campaignId: string;

  beforeEach(async () => {
    h = await engineHarness(store());
    // Two steps, so that the preview of step 1 is a preview of one step of many.
    campaignId = await createCampaign(h.api, {
      name: 'Budget',
      sequence: {
        variation_a: [
          { id: 1, type: 'email', subject: '{a}', content: '{b}', delay: 0 },
          { id: 2, type: 'email', subject: 'Again', content: 'Following up.', delay: 3 },
        ],
      },
    });
    const accounts = await demoAccounts(h.api);
    await assignSenders(h.api, campaignId, [accounts.email.id]);
  });

  const previewStep1 = (leadId: string) =>
    h.api.call<{ error?: string }>('POST', `/v1/campaigns/${campaignId}/preview`, {
      body: { lead_id: leadId, step_id: 1 },
    });
  const kinds = async (enrolmentId: string) =>
    (await store().activity.listForEnrolment(enrolmentId)).map((event) => event.kind);

  it('previews one step with 200 exactly when the engine sends it', async () => {
    // Characters the subject (`a`) and the content (`b`) render to, and whether the message fits.
    const cases = [
      { a: 60_000, b: 60_000, fits: false },
      { a: 50_000, b: 50_000, fits: true },
      { a: 50_000, b: 50_001, fits: false },
      { a: 99_990, b: 10, fits: true },
    ];
    const leads = [];
    for (const { a, b } of cases) {
      leads.push(await enrolledLead(h.api, campaignId, { custom_fields: { a: 'a'.repeat(a), b: 'b'.repeat(b) } }));
    }
    await activate(h.api, campaignId);
    const round = await h.engine.runDue();
    expect(round.steps_run).toBe(cases.filter((c) => c.fits).length);
    for (const [i, { fits }] of cases.entries()) {
      const { lead, enrolment } = leads[i] as (typeof leads)[number];
      const preview = await previewStep1(lead.id);
      const sent = (await kinds(enrolment.id)).includes('email_sent');
      expect({ case: cases[i], preview: preview.status, sent }).toEqual({
        case: cases[i],
        preview: fits ? 200 : 400,
        sent: fits,
      });
      if (!fits) expect(preview.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it("sends a too-long step at the next round once the lead's edit shortens it", async () => {
    const { lead, enrolment } = await enrolledLead(h.api, campaignId, {
      custom_fields: { a: 'a'.repeat(100_001), b: 'Hello' },
    });
    await activate(h.api, campaignId);
    expect(await h.engine.runDue()).toEqual({ steps_run: 0, deliveries_attempted: 0 });
    // The same sandbox time: only the edit can end the wait (`tooLongRetryMs` has not passed).
    const edited = await h.api.call('PATCH', `/v1/leads/${lead.id}`, {
      body: { custom_fields: { a: 'Hi', b: 'Hello' } },
    });
    expect(edited.status).toBe(200);
    expect(await h.engine.runDue()).toEqual({ steps_run: 1, deliveries_attempted: 0 });
    expect(await kinds(enrolment.id)).toEqual(['email_sent']);
  });
});
