/**
 * Deleting a lead erases its personal data everywhere it is kept, in one transaction: the
 * lead row, the text of its replies, and the invitee of its bookings; counts stay intact.
 */
import { expect, it } from 'vitest';
import { activityBuilder, nov } from '../support/activity.ts';
import { createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('lead erasure', (store) => {
  it('erases reply text and booking invitees with the lead, and keeps the counts', async () => {
    const api = await createTestApi(store());
    const build = activityBuilder(store(), api.organizationId, api.ownerId);
    const campaign = await build.campaign({ is_active: true });
    const enrolment = await build.enrol(campaign, { status: 'paused', variation: 'a' });
    await build.event(enrolment, 'email_sent', nov(2));
    await build.reply(enrolment, nov(3), 'email', {
      sentiment: 'positive',
      out_of_office: false,
      message: 'Yes, call me on +1 555 0100, Maya',
    });
    await build.booking(enrolment, 'meeting', nov(4), {
      invitee_name: 'Maya Patel',
      invitee_email: 'maya.patel@acmerobotics.com',
    });
    const before = await api.call<{ analysis: { funnel: unknown } }>('GET', `/v1/campaigns/${campaign.id}/analysis`);

    const deleted = await api.call('DELETE', `/v1/leads/${enrolment.lead.id}`);
    expect(deleted.status).toBe(200);

    const events = await store().activity.listForEnrolment(enrolment.id);
    expect(JSON.stringify(events)).not.toContain('555 0100');
    const bookings = await store().bookings.listForCampaign(campaign.id);
    expect(bookings).toHaveLength(1);
    expect(bookings[0]).toMatchObject({ invitee_name: null, invitee_email: null });
    const after = await api.call<{ analysis: { funnel: unknown } }>('GET', `/v1/campaigns/${campaign.id}/analysis`);
    expect(after.body.analysis.funnel).toEqual(before.body.analysis.funnel);
  });

  it("keeps no fingerprint of an erased lead's request: its key replays the erased answer, whatever the body", async () => {
    const api = await createTestApi(store());
    const body = { email: 'maya.patel@acmerobotics.com', first_name: 'Maya' };
    const keyed = (key: string, sent: Record<string, unknown>) =>
      api.call<{ lead: { id: string; email: string | null } }>('POST', '/v1/leads', {
        body: sent,
        headers: { 'Idempotency-Key': key },
      });
    const created = await keyed('create-maya', body);
    expect(created.status).toBe(201);
    const lead = created.body.lead;
    // An import: its answer names each lead by ID only, and keeps its body through an erasure.
    const leads = [{ email: 'ivo@example.com' }, { email: 'nia@example.com' }];
    const imported = await api.call<{ results: Array<{ lead_id: string }> }>('POST', '/v1/leads', {
      body: { leads },
      headers: { 'Idempotency-Key': 'import-both' },
    });
    expect(imported.status).toBe(207);
    // Before the erasure, another body is refused: that is what a guess of the data would learn from.
    expect((await keyed('create-maya', { ...body, first_name: 'Mia' })).status).toBe(409);

    expect((await api.call('DELETE', `/v1/leads/${lead.id}`)).status).toBe(200);
    const answers = await Promise.all([
      keyed('create-maya', body),
      keyed('create-maya', { ...body, first_name: 'Mia' }),
      keyed('create-maya', { email: 'someone@else.example' }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
      expect(answer.body.lead).toMatchObject({ id: lead.id, email: null });
    }
    // The key still belongs to its operation: another one is refused, as before the erasure.
    const otherOperation = await api.call<{ error: string }>('POST', '/v1/campaigns', {
      body: { name: 'Q4' },
      headers: { 'Idempotency-Key': 'create-maya' },
    });
    expect([otherOperation.status, otherOperation.body.error]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    expect((await api.call('DELETE', `/v1/leads/${imported.body.results[1]?.lead_id}`)).status).toBe(200);
    const guess = await api.call('POST', '/v1/leads', {
      body: { leads: [leads[0], { email: 'not-nia@example.com' }] },
      headers: { 'Idempotency-Key': 'import-both' },
    });
    expect(guess.status).toBe(207);
    expect(guess.headers.get('idempotent-replayed')).toBe('true');
    expect(guess.body).toEqual(imported.body);
  });

  it("drops the digest of a refused lead create's request at an erasure: its answer names no lead to find it by", async () => {
    const api = await createTestApi(store());
    const body = { email: 'maya.patel@acmerobotics.com', campaign_id: '00000000-0000-4000-8000-000000000000' };
    const keyed = (key: string, sent: Record<string, unknown>, path = '/v1/leads') =>
      api.call<{ error: string }>('POST', path, { body: sent, headers: { 'Idempotency-Key': key } });
    const refused = await keyed('refused-maya', body);
    expect([refused.status, refused.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    // A refused campaign create's key, which held no lead's data, is left as it was.
    const broken = { name: 'Broken', sequence: { variation_a: [{ id: 1, type: 'linkedin_connection' }] } };
    const campaignRefused = await keyed('refused-campaign', broken, '/v1/campaigns');
    expect([campaignRefused.status, campaignRefused.body.error]).toEqual([400, 'SEQUENCE_VALIDATION_FAILED']);
    // A batch whose item for the lead was refused (its other item created another lead).
    const batch = (email: string) => ({ leads: [{ ...body, email }, { email: 'ivo@example.com' }] });
    const batchRefused = await keyed('batch-maya', batch(body.email));
    expect(batchRefused.status).toBe(207);
    const created = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', { body: { email: body.email } });
    expect(created.status).toBe(201);
    // Before the erasure, a guess that misses is told apart from the request's body.
    expect((await keyed('refused-maya', { ...body, email: 'guess@acmerobotics.com' })).status).toBe(409);
    expect((await keyed('batch-maya', batch('guess@acmerobotics.com'))).status).toBe(409);

    expect((await api.call('DELETE', `/v1/leads/${created.body.lead.id}`)).status).toBe(200);
    for (const guess of [body, { ...body, email: 'guess@acmerobotics.com' }]) {
      const answer = await keyed('refused-maya', guess);
      expect([answer.status, answer.body]).toEqual([refused.status, refused.body]);
      expect(answer.headers.get('idempotent-replayed')).toBe('true');
    }
    for (const guess of [batch(body.email), batch('guess@acmerobotics.com')]) {
      const answer = await keyed('batch-maya', guess);
      expect([answer.status, answer.body]).toEqual([batchRefused.status, batchRefused.body]);
    }
    expect((await keyed('refused-campaign', { name: 'Q4' }, '/v1/campaigns')).status).toBe(409);
  });
});
