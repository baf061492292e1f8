/**
 * The campaign the analytics API tests count: six leads with activity and bookings written
 * through the store, and the numbers worked out by hand in the tests.
 */
import type { CampaignRecord, EnrolmentRecord, LeadRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from './api.ts';
import { activityBuilder, nov } from './activity.ts';

/** The requests are made on 10 November 2026 at 12:00 UTC. */
export const analyticsNow = new Date('2026-11-10T12:00:00.000Z');

export type Enrolled = EnrolmentRecord & { lead: LeadRecord };

export interface Seeded {
  api: TestApi;
  campaign: CampaignRecord;
  accounts: { li: string; em1: string; em2: string };
  l1: Enrolled;
  l2: Enrolled;
  l3: Enrolled;
  l4: Enrolled;
  l5: Enrolled;
  l6: Enrolled;
}

/**
 * Q4 Founders (A/B on, activated 1 November), six leads:
 * - L1 (a, active): email (step 1) 2 Nov, opened, profile view 3 Nov, request 4 Nov,
 *   accepted 5 Nov; its message (step 5) is overdue.
 * - L2 (a, paused): email 2 Nov, positive email reply 3 Nov, meeting booked 4 Nov.
 * - L3 (b, paused): email (step 7, second email account) 2 Nov, opened 6 Nov, negative
 *   reply 6 Nov that names no account.
 * - L4 (no arm, not contacted).
 * - L5 (b, active, its lead later deleted): email 8 Nov, out-of-office reply 9 Nov,
 *   confirmation 9 Nov.
 * - L6: removed from the campaign; its email counts nowhere.
 */
export async function seedAnalytics(store: Store): Promise<Seeded> {
  const api = await createTestApi(store, { clock: { now: () => analyticsNow } });
  const b = activityBuilder(store, api.organizationId, api.ownerId);
  const { items } = await store.accounts.list(api.organizationId, { limit: 10, offset: 0 });
  const id = (prefix: string) => items.find((a) => a.id.startsWith(prefix))?.id as string;
  const accounts = { li: id('acc_li_demo0001'), em1: id('acc_em_demo0001'), em2: id('acc_em_demo0002') };
  const campaign = await b.campaign({ enabled_accounts: [accounts.li, accounts.em1] });
  const email = (fills: Array<[string, 'lead' | 'ai', 'filled' | 'fallback' | 'empty']>) => ({
    placeholders: fills.map(([name, source, fill]) => ({ name, source, fill })),
  });

  const l1 = await b.enrol(campaign, { variation: 'a', status: 'active' });
  await b.event(l1, 'email_sent', nov(2, 9, 5), {
    step_id: 1,
    account_id: accounts.em1,
    data: {
      position: '0',
      next_step_id: 2,
      ...email([
        ['first_name', 'lead', 'filled'],
        ['icebreaker', 'ai', 'fallback'],
      ]),
    },
  });
  await b.event(l1, 'email_opened', nov(2, 12), { account_id: accounts.em1 });
  await b.event(l1, 'profile_viewed', nov(3, 9, 5), { step_id: 2, account_id: accounts.li });
  await b.event(l1, 'connection_requested', nov(4, 9, 5), {
    step_id: 3,
    account_id: accounts.li,
    data: email([['first_name', 'lead', 'filled']]),
  });
  await b.event(l1, 'connection_accepted', nov(5, 10), { account_id: accounts.li });

  const l2 = await b.enrol(campaign, { variation: 'a', status: 'paused' });
  await b.event(l2, 'email_sent', nov(2, 9, 5), {
    step_id: 1,
    account_id: accounts.em1,
    data: email([
      ['first_name', 'lead', 'filled'],
      ['icebreaker', 'ai', 'filled'],
    ]),
  });
  await b.reply(l2, nov(3, 10), 'email', { sentiment: 'positive' }, { account_id: accounts.em1 });
  await b.booking(l2, 'meeting', nov(4, 15), {
    invitee_name: `${l2.lead.first_name} ${l2.lead.last_name}`,
    invitee_email: l2.lead.email,
  });

  const l3 = await b.enrol(campaign, { variation: 'b', status: 'paused' });
  await b.event(l3, 'email_sent', nov(2, 9, 10), {
    step_id: 7,
    account_id: accounts.em2,
    data: email([
      ['first_name', 'lead', 'filled'],
      ['company', 'lead', 'empty'],
    ]),
  });
  await b.event(l3, 'email_opened', nov(6, 8));
  await b.reply(l3, nov(6, 9), 'email', { sentiment: 'negative' });

  const l4 = await b.enrol(campaign);

  const l5 = await b.enrol(campaign, { variation: 'b', status: 'active' });
  await b.event(l5, 'email_sent', nov(8), {
    step_id: 7,
    account_id: accounts.em1,
    data: email([['first_name', 'lead', 'empty']]),
  });
  await b.reply(l5, nov(9), 'email', { sentiment: 'positive', out_of_office: true }, { account_id: accounts.em1 });
  await b.booking(l5, 'confirmation', nov(9, 10));
  await store.leads.erase(api.organizationId, l5.lead_id, nov(9, 11));

  const l6 = await b.enrol(campaign, { variation: 'a', status: 'active', removed_at: nov(3) });
  await b.event(l6, 'email_sent', nov(2), { step_id: 1, account_id: accounts.em1 });
  return { api, campaign, accounts, l1, l2, l3, l4, l5, l6 };
}
