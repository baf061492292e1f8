/**
 * The bookings list and the queue over seeded activity and bookings.
 * Every answer is checked against the OpenAPI document.
 */
import { expect, it } from 'vitest';
import { bucket } from '../../src/domain/arm.ts';
import { activityBuilder } from '../support/activity.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { analyticsNow as now, seedAnalytics } from '../support/analytics-seed.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('analytics: bookings and queue', (store) => {
  let api: TestApi;

  const seed = async () => {
    const seeded = await seedAnalytics(store());
    api = seeded.api;
    return seeded;
  };

  const get = <T = Record<string, unknown>>(path: string, query = '') =>
    api.call<T>('GET', `${path}${query ? `?${query}` : ''}`);

  it('bookings: newest first, a deleted lead’s summary and invitee null, `since`', async () => {
    const { campaign, l2, l5 } = await seed();
    const answer = await get(`/v1/campaigns/${campaign.id}/bookings`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      count: 2,
      bookings: [
        {
          id: expect.any(String),
          kind: 'confirmation',
          sequence_lead_id: l5.id,
          lead: null,
          booked_at: '2026-11-09T10:00:00.000+00:00',
          start_time: null,
          status: null,
          invitee_name: null,
          invitee_email: null,
          canceled_at: null,
          rescheduled: null,
          confirmed_by: 'agent',
        },
        {
          id: expect.any(String),
          kind: 'meeting',
          sequence_lead_id: l2.id,
          lead: {
            id: l2.lead.id,
            first_name: l2.lead.first_name,
            last_name: l2.lead.last_name,
            email: l2.lead.email,
            company: l2.lead.company,
          },
          booked_at: '2026-11-04T15:00:00.000+00:00',
          start_time: '2026-11-07T15:00:00.000+00:00',
          status: 'active',
          invitee_name: `${l2.lead.first_name} ${l2.lead.last_name}`,
          invitee_email: l2.lead.email,
          canceled_at: null,
          rescheduled: false,
          confirmed_by: null,
        },
      ],
    });
    for (const since of ['2026-11-05', '2026-11-09T10:00:00%2B00:00', '2026-11-09T11:00:00%2B01:00']) {
      const recent = await get<{ bookings: Array<{ kind: string }>; count: number }>(
        `/v1/campaigns/${campaign.id}/bookings`,
        `since=${since}`,
      );
      expect(
        recent.body.bookings.map((b) => b.kind),
        since,
      ).toEqual(['confirmation']);
      expect(recent.body.count).toBe(1);
    }
    const none = await get<{ bookings: unknown[]; count: number }>(
      `/v1/campaigns/${campaign.id}/bookings`,
      'since=2026-11-10',
    );
    expect(none.body).toMatchObject({ bookings: [], count: 0 });
  });

  it('bookings: at most 500 of each kind, the newest', async () => {
    api = await createTestApi(store(), { clock: { now: () => now } });
    const b = activityBuilder(store(), api.organizationId, api.ownerId);
    const campaign = await b.campaign();
    const enrolment = await b.enrol(campaign, { variation: 'a', status: 'paused' });
    await store().transaction(async (tx) => {
      const inTx = activityBuilder(tx, api.organizationId, api.ownerId);
      for (let i = 0; i < 502; i += 1)
        await inTx.booking(enrolment, 'meeting', new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString());
      // Between the oldest two meetings kept: the 500-per-kind limit does not drop it.
      await inTx.booking(enrolment, 'confirmation', '2026-11-01T00:02:30.000Z');
    });
    const answer = await get<{ bookings: Array<{ kind: string; booked_at: string }>; count: number }>(
      `/v1/campaigns/${campaign.id}/bookings`,
    );
    expect(answer.body.count).toBe(501);
    expect(answer.body.bookings.filter((x) => x.kind === 'meeting')).toHaveLength(500);
    expect(answer.body.bookings.at(-1)).toMatchObject({ kind: 'meeting', booked_at: '2026-11-01T00:02:00.000+00:00' });
    expect(answer.body.bookings.at(-2)?.kind).toBe('confirmation');
  });

  it('queue: each running lead’s next step, soonest first, with `limit` and `before`', async () => {
    const { campaign, accounts, l1, l4 } = await seed();
    // L4 has no arm yet: it shows the first step of the arm it will be drawn into (A/B testing
    // is on at 50 %), both of them emails.
    const l4First = bucket(l4.id) < 50 ? 1 : 7;
    const answer = await get(`/v1/campaigns/${campaign.id}/queue`);
    expect(answer.status).toBe(200);
    // L2, L3 paused, L5 deleted, L6 removed: no item.
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      count: 2,
      queue: [
        {
          sequence_lead_id: l4.id,
          lead_id: l4.lead_id,
          step_id: l4First,
          step_type: 'email',
          variation: null,
          channel: 'email',
          due_at: '2026-11-01T00:00:00.000+00:00',
          sender_account_id: accounts.em1,
        },
        {
          sequence_lead_id: l1.id,
          lead_id: l1.lead_id,
          step_id: 5,
          step_type: 'linkedin_message',
          variation: 'a',
          channel: 'linkedin',
          due_at: '2026-11-08T09:05:00.000+00:00',
          sender_account_id: accounts.li,
        },
      ],
    });
    const limited = await get<{ queue: Array<{ step_id: number }>; count: number }>(
      `/v1/campaigns/${campaign.id}/queue`,
      'limit=1',
    );
    expect(limited.body).toMatchObject({ count: 1, queue: [{ step_id: l4First }] });
    const before = await get<{ queue: Array<{ step_id: number }> }>(
      `/v1/campaigns/${campaign.id}/queue`,
      'before=2026-11-08T09:05:00%2B00:00',
    );
    expect(before.body.queue.map((item) => item.step_id)).toEqual([l4First, 5]);
    const earlier = await get<{ queue: unknown[] }>(
      `/v1/campaigns/${campaign.id}/queue`,
      'before=2026-11-08T09:04:59Z',
    );
    expect(earlier.body.queue).toHaveLength(1);
  });

  it('queue: a draft or deactivated campaign sends nothing', async () => {
    const { campaign } = await seed();
    await store().campaigns.update(api.organizationId, campaign.id, { is_active: false });
    const answer = await get(`/v1/campaigns/${campaign.id}/queue`);
    expect(answer.body).toEqual({ success: true, campaign_id: campaign.id, count: 0, queue: [] });
  });
});
