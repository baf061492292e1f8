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
});
