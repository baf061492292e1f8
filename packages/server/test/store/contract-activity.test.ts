/**
 * The store contract for activity events and bookings: the same assertions on memory,
 * PGlite and PostgreSQL (ordering, filters, JSON data, timestamps, erasure, transactions).
 */
import { expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import type { Store } from '../../src/store/types.ts';
import { type ActivityBuilder, activityBuilder, nov } from '../support/activity.ts';
import { describeBackends } from '../support/backends.ts';

async function builderFor(store: Store): Promise<ActivityBuilder> {
  const ownerId = crypto.randomUUID();
  const organization = await createOrganization(store, {
    name: 'Activity Org',
    members: [{ id: ownerId, email: 'o@example.com', name: 'Owner', role: 'owner' }],
  });
  return activityBuilder(store, organization.id, ownerId);
}

describeBackends('store contract: activity', (store) => {
  it('lists a campaign’s events oldest first, ties by id, with data and timestamps intact', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const other = await b.campaign();
    const enrolment = await b.enrol(campaign, { variation: 'a', status: 'active' });
    const ids = ['ffffffff-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000'];
    const late = await b.event(enrolment, 'email_opened', nov(3));
    const tiedHigh = await b.event(enrolment, 'email_sent', nov(2), {
      id: ids[0],
      step_id: 1,
      account_id: 'acc_em_1',
      data: {
        position: '0',
        next_step_id: 2,
        placeholders: [{ name: 'first_name', source: 'lead', fill: 'filled' }],
      },
    });
    const tiedLow = await b.event(enrolment, 'profile_viewed', nov(2), { id: ids[1], step_id: 2 });
    await b.event(await b.enrol(other), 'email_sent', nov(2));
    const listed = await store().activity.listForCampaign(campaign.id);
    expect(listed).toEqual([tiedLow, tiedHigh, late]);
    expect(listed[1]?.data.placeholders).toEqual([{ name: 'first_name', source: 'lead', fill: 'filled' }]);
  });

  it('filters a campaign’s events by start (inclusive) and kind', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const enrolment = await b.enrol(campaign);
    await b.event(enrolment, 'email_sent', nov(1, 23, 59));
    const atStart = await b.event(enrolment, 'email_opened', nov(2));
    const reply = await b.reply(enrolment, nov(4), 'email', { sentiment: 'positive' });
    const fromStart = await store().activity.listForCampaign(campaign.id, { from: '2026-11-02T09:00:00+00:00' });
    expect(fromStart.map((e) => e.id)).toEqual([atStart.id, reply.id]);
    const justAfter = await store().activity.listForCampaign(campaign.id, { from: '2026-11-02T09:00:00.001Z' });
    expect(justAfter.map((e) => e.id)).toEqual([reply.id]);
    const replies = await store().activity.listForCampaign(campaign.id, { kinds: ['reply_received'] });
    expect(replies).toEqual([reply]);
    expect(await store().activity.listForCampaign(campaign.id, { kinds: [] })).toEqual([]);
  });

  it('lists a campaign’s events of some kinds with the columns the sequence walks read', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const enrolment = await b.enrol(campaign);
    const ids = ['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001'];
    const sent = await b.event(enrolment, 'email_sent', nov(2), {
      id: ids[0],
      step_id: 1,
      account_id: 'acc_em_1',
      data: { position: '0', next_step_id: 2 },
    });
    // Tied in time with the send: ordered by ID.
    const accepted = await b.event(enrolment, 'connection_accepted', nov(2), { id: ids[1] });
    await b.event(enrolment, 'email_opened', nov(2, 10));
    const reply = await b.reply(enrolment, nov(3), 'email', { sentiment: 'positive' });
    await b.event(await b.enrol(await b.campaign()), 'email_sent', nov(2));
    const walked = ({ id, enrolment_id, kind, occurred_at, step_id, account_id, channel, data }: typeof sent) => ({
      id,
      enrolment_id,
      kind,
      occurred_at,
      step_id,
      account_id,
      channel,
      data,
    });
    const listed = await store().activity.listProgressEvents(campaign.id, {
      kinds: ['email_sent', 'connection_accepted', 'reply_received'],
    });
    expect(listed).toEqual([accepted, sent, reply].map(walked));
    expect(await store().activity.listProgressEvents(campaign.id, { kinds: [] })).toEqual([]);
  });

  it('counts events of given kinds by account over a time range, across campaigns', async () => {
    const b = await builderFor(store());
    const [one, two] = [await b.enrol(await b.campaign()), await b.enrol(await b.campaign())];
    await b.event(one, 'email_sent', nov(1, 23, 59), { account_id: 'acc_1' }); // the day before
    await b.event(one, 'email_sent', nov(2, 0, 0), { account_id: 'acc_1' }); // the range's start
    await b.event(two, 'email_sent', nov(2, 15), { account_id: 'acc_1' }); // another campaign
    await b.event(one, 'email_opened', nov(2, 16), { account_id: 'acc_1' }); // another kind
    await b.event(two, 'connection_requested', nov(2, 17), { account_id: 'acc_2' });
    await b.event(two, 'linkedin_message_sent', nov(2, 18), { account_id: 'acc_2' });
    await b.event(one, 'email_sent', nov(3, 0, 0), { account_id: 'acc_1' }); // the range's end
    await b.event(one, 'email_sent', nov(2, 12), { account_id: 'acc_3' }); // not asked
    const counts = await store().activity.countByAccount(['acc_1', 'acc_2', 'acc_4'], {
      kinds: ['email_sent', 'connection_requested', 'linkedin_message_sent'],
      from: '2026-11-02T00:00:00.000Z',
      to: '2026-11-03T00:00:00.000Z',
    });
    expect(counts).toEqual(
      new Map([
        ['acc_1', 2],
        ['acc_2', 2],
      ]),
    );
    expect(await store().activity.countByAccount([], { kinds: ['email_sent'], from: nov(1), to: nov(9) })).toEqual(
      new Map(),
    );
  });

  it('lists one sequence lead’s events, by kind when asked', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const first = await b.enrol(campaign);
    const second = await b.enrol(campaign);
    const sent = await b.event(first, 'connection_requested', nov(2), { step_id: 3 });
    const accepted = await b.event(first, 'connection_accepted', nov(3));
    await b.event(second, 'connection_requested', nov(2));
    expect(await store().activity.listForEnrolment(first.id)).toEqual([sent, accepted]);
    expect(await store().activity.listForEnrolment(first.id, { kinds: ['connection_accepted'] })).toEqual([accepted]);
  });

  it('lists every enrolment of a campaign with its lead’s deletion, removed ones included', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const later = await b.enrol(campaign, { enrolled_at: nov(2) });
    const removed = await b.enrol(campaign, { enrolled_at: nov(1), removed_at: nov(3) });
    const deleted = await b.enrol(campaign, { enrolled_at: nov(2), id: '00000000-0000-4000-8000-000000000001' });
    await store().leads.erase(b.organizationId, deleted.lead_id, nov(4));
    await b.enrol(await b.campaign());
    const listed = await store().activity.listEnrolments(campaign.id);
    expect(listed.map((e) => [e.id, e.lead_deleted_at])).toEqual([
      [removed.id, null],
      [deleted.id, nov(4)],
      [later.id, null],
    ]);
    expect(listed[2]).toMatchObject({
      id: later.id,
      organization_id: later.organization_id,
      campaign_id: later.campaign_id,
      lead_id: later.lead_id,
      status: later.status,
      variation: later.variation,
      enrolled_at: later.enrolled_at,
      removed_at: later.removed_at,
      lead_deleted_at: null,
    });
  });

  it('erases the reply text of a deleted lead and nothing else', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const erased = await b.enrol(campaign);
    const kept = await b.enrol(campaign);
    await b.reply(erased, nov(3), 'email', { sentiment: 'positive', message: 'Call me on 555-0100' });
    await b.reply(kept, nov(3), 'email', { message: 'Not now' });
    await b.event(erased, 'email_sent', nov(2), { data: { position: '0' } });
    await store().activity.eraseLead(b.organizationId, erased.lead_id);
    const events = await store().activity.listForCampaign(campaign.id);
    const byLead = (leadId: string, kind: string) => events.find((e) => e.lead_id === leadId && e.kind === kind);
    expect(byLead(erased.lead_id, 'reply_received')?.data).toEqual({
      sentiment: 'positive',
      out_of_office: false,
      message: null,
    });
    expect(byLead(erased.lead_id, 'email_sent')?.data).toEqual({ position: '0' });
    expect(byLead(kept.lead_id, 'reply_received')?.data.message).toBe('Not now');
  });

  it('writes nothing when a transaction fails', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const enrolment = await b.enrol(campaign);
    await expect(
      store().transaction(async (tx) => {
        await activityBuilder(tx, b.organizationId, '').event(enrolment, 'email_sent', nov(2));
        await activityBuilder(tx, b.organizationId, '').booking(enrolment, 'confirmation', nov(3));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store().activity.listForCampaign(campaign.id)).toEqual([]);
    expect(await store().bookings.listForCampaign(campaign.id)).toEqual([]);
  });
});

describeBackends('store contract: bookings', (store) => {
  it('lists newest first, ties by id, at most N of each kind, from `since` inclusive', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const enrolment = await b.enrol(campaign);
    const m1 = await b.booking(enrolment, 'meeting', nov(1));
    const m2 = await b.booking(enrolment, 'meeting', nov(2), { id: 'ffffffff-0000-4000-8000-000000000000' });
    const m3 = await b.booking(enrolment, 'meeting', nov(2), { id: '00000000-0000-4000-8000-000000000000' });
    const c1 = await b.booking(enrolment, 'confirmation', nov(3));
    const c2 = await b.booking(enrolment, 'confirmation', nov(1, 12));
    await b.booking(await b.enrol(await b.campaign()), 'meeting', nov(4));
    expect(await store().bookings.listForCampaign(campaign.id)).toEqual([c1, m2, m3, c2, m1]);
    expect(await store().bookings.listForCampaign(campaign.id, { limitPerKind: 1 })).toEqual([c1, m2]);
    expect(
      (await store().bookings.listForCampaign(campaign.id, { since: '2026-11-02T09:00:00+00:00' })).map((x) => x.id),
    ).toEqual([c1.id, m2.id, m3.id]);
  });

  it('gets, updates and erases a booking within its campaign', async () => {
    const b = await builderFor(store());
    const campaign = await b.campaign();
    const other = await b.campaign();
    const enrolment = await b.enrol(campaign);
    const meeting = await b.booking(enrolment, 'meeting', nov(2));
    expect(await store().bookings.get(campaign.id, meeting.id)).toEqual(meeting);
    expect(await store().bookings.get(other.id, meeting.id)).toBeNull();
    expect(await store().bookings.update(other.id, meeting.id, { status: 'canceled' })).toBeNull();
    const canceled = await store().bookings.update(campaign.id, meeting.id, {
      status: 'canceled',
      canceled_at: nov(3),
    });
    expect(canceled).toEqual({ ...meeting, status: 'canceled', canceled_at: nov(3) });
    await store().bookings.eraseLead(b.organizationId, enrolment.lead_id);
    expect(await store().bookings.get(campaign.id, meeting.id)).toEqual({
      ...meeting,
      status: 'canceled',
      canceled_at: nov(3),
      invitee_name: null,
      invitee_email: null,
    });
  });
});
