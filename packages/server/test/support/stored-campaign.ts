/**
 * A simulated campaign (test/support/simulated-campaign.ts) written through a store, with two
 * leads of the edges, and its rows as the reports read them back: what a store's sums for the
 * reports (`firstFactDays`, `placeholderFillSums`) are checked against.
 */
import type { AnalyticsData } from '../../src/domain/analytics/index.ts';
import type { Store } from '../../src/store/types.ts';
import { createTestApi } from './api.ts';
import { activityBuilder, q4Sequence } from './activity.ts';
import type { Enrolled } from './analytics-seed.ts';
import { simulateCampaign } from './simulated-campaign.ts';

/** A simulated campaign written through the store; the rows as the reports read them back. */
export async function storedCampaign(store: Store, seed: number): Promise<{ campaignId: string; data: AnalyticsData }> {
  const api = await createTestApi(store);
  const b = activityBuilder(store, api.organizationId, api.ownerId);
  const sequence = q4Sequence();
  const campaign = await b.campaign({ sequence });
  const simulated = simulateCampaign({ seed, leads: 120, sequence });
  // And two leads of the edges: one enrolled after the activity, never contacted (unassigned);
  // one removed from the campaign by its own deletion, at the same instant (still counted).
  const first = simulated.enrolments[0] as (typeof simulated.enrolments)[number];
  const deletedAt = '2026-11-19T11:00:00.000Z';
  const enrolments = [
    ...simulated.enrolments,
    {
      ...first,
      id: 'late',
      status: 'not_contacted' as const,
      variation: null,
      removed_at: null,
      lead_deleted_at: null,
    },
    {
      ...first,
      id: 'gone',
      status: 'paused' as const,
      variation: 'a' as const,
      removed_at: deletedAt,
      lead_deleted_at: deletedAt,
    },
  ];
  const events = [
    ...simulated.events,
    {
      id: 'gone-email',
      enrolment_id: 'gone',
      kind: 'email_sent' as const,
      occurred_at: '2026-11-03T10:00:00.000Z',
      step_id: 1,
      account_id: null,
      channel: 'email' as const,
      data: {},
    },
  ];
  const stored = new Map<string, Enrolled>();
  for (const e of enrolments) {
    const lead = await b.lead({ deleted_at: e.lead_deleted_at });
    const { status, variation, enrolled_at, removed_at } = e;
    stored.set(e.id, await b.enrol(campaign, { lead, status, variation, enrolled_at, removed_at }));
  }
  const storedOf = (id: string) => stored.get(id) as Enrolled;
  for (const { enrolment_id, kind, occurred_at, step_id, account_id, channel, data } of events) {
    await b.event(storedOf(enrolment_id), kind, occurred_at, { step_id, account_id, channel, data });
  }
  for (const booking of simulated.bookings)
    await b.booking(storedOf(booking.enrolment_id), booking.kind, booking.booked_at);
  return { campaignId: campaign.id, data: await campaignRows(store, campaign.id) };
}

/** A campaign's rows as the reports read them: what the references work the sums out from. */
export async function campaignRows(store: Store, campaignId: string): Promise<AnalyticsData> {
  return {
    enrolments: await store.activity.listEnrolments(campaignId),
    events: await store.activity.listForCampaign(campaignId),
    bookings: await store.bookings.listForCampaign(campaignId),
  };
}

/** Windows that start before, inside and after the simulated activity, in `Z` and offset forms. */
export const reportWindows = [
  null,
  '2026-10-01T00:00:00.000Z',
  '2026-11-05T00:00:00.000Z',
  // The same instant as 2026-11-08T10:00Z, written with an offset.
  '2026-11-08T12:00:00.000+02:00',
  '2026-11-14T23:59:59.999Z',
  '2027-01-01T00:00:00.000Z',
];
