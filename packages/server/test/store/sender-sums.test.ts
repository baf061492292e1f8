/**
 * `ActivityStore.senderSums` (what the sender breakdown counts from) against `senderSumsOf`,
 * the same sums worked out from the rows, on every store: simulated campaigns (replies with
 * and without their account) read with windows before, inside and after the activity; a
 * campaign written for the crediting rules; and rules of the test's own.
 */
import { expect, it } from 'vitest';
import { messageKinds } from '../../src/domain/activity.ts';
import { senderRules, senderSumsOf } from '../../src/domain/analytics/index.ts';
import type { SenderRules, SenderSum } from '../../src/store/types.ts';
import { createTestApi } from '../support/api.ts';
import { activityBuilder } from '../support/activity.ts';
import { describeBackends } from '../support/backends.ts';
import { campaignRows, reportWindows, storedCampaign } from '../support/stored-campaign.ts';

const sorted = (sums: readonly SenderSum[]) => [...sums].sort((a, b) => (a.account_id < b.account_id ? -1 : 1));

it('credits a reply without an account to the last send of the message kinds', () => {
  expect(new Set(senderRules.sends.flatMap((rule) => rule.kinds))).toEqual(new Set(messageKinds));
});

describeBackends('ActivityStore.senderSums', (store) => {
  it('sums what senderSumsOf works out from the rows, for every window', async () => {
    for (const seed of [1, 2]) {
      const { campaignId, data } = await storedCampaign(store(), seed);
      for (const from of reportWindows) {
        const fromStore = await store().activity.senderSums(campaignId, { from, ...senderRules });
        expect(sorted(fromStore), `seed ${seed}, from ${from}`).toEqual(sorted(senderSumsOf(data, from)));
      }
      // Not empty: both channels' accounts have sends and replies.
      const all = await store().activity.senderSums(campaignId, { from: null, ...senderRules });
      expect(all.map((sum) => sum.account_id).sort()).toEqual(['acc_em_1', 'acc_em_2', 'acc_li_1', 'acc_li_2']);
      expect(all.every((sum) => sum.sent > 0 && sum.replied > 0 && sum.positive > 0)).toBe(true);
    }
  }, 120_000);

  it('credits sends and replies as the report says', async () => {
    const api = await createTestApi(store());
    const b = activityBuilder(store(), api.organizationId, api.ownerId);
    const campaign = await b.campaign();
    const enrol = async (enrolledAt: string, removed = false) =>
      b.enrol(campaign, {
        lead: await b.lead(),
        enrolled_at: enrolledAt,
        removed_at: removed ? '2026-11-20T00:00:00.000Z' : null,
      });
    const second = await enrol('2026-11-02T00:00:00.000Z');
    const first = await enrol('2026-11-01T00:00:00.000Z');
    const removed = await enrol('2026-10-01T00:00:00.000Z', true);
    const positive = { sentiment: 'positive' as const, out_of_office: false };

    // First lead: an email from em_1 before the window, one from em_2 inside it (its first
    // inside), and a reply without an account: credited to em_2, the last send before it.
    await b.event(first, 'email_sent', '2026-11-01T09:00:00.000Z', { account_id: 'em_1' });
    await b.event(first, 'email_sent', '2026-11-05T09:00:00.000Z', { account_id: 'em_2' });
    await b.reply(first, '2026-11-06T09:00:00.000Z', 'email', positive);
    // A LinkedIn message of an account the organization does not know, and a LinkedIn reply
    // that names its account.
    await b.event(first, 'linkedin_message_sent', '2026-11-05T10:00:00.000Z', { account_id: 'li_x' });
    await b.reply(first, '2026-11-07T09:00:00.000Z', 'linkedin', { sentiment: 'neutral' }, { account_id: 'li_y' });
    // Second lead: sends without an account (credited to nobody), then two emails at the same
    // instant and a reply right then: the smaller ID is the first send, the larger the last.
    await b.event(second, 'connection_requested', '2026-11-05T08:00:00.000Z', { account_id: null });
    await b.event(second, 'linkedin_message_sent', '2026-11-05T08:30:00.000Z', { account_id: '' });
    const ids = [crypto.randomUUID(), crypto.randomUUID()].sort();
    await b.event(second, 'email_sent', '2026-11-05T09:00:00.000Z', { id: ids[1], account_id: 'em_3' });
    await b.event(second, 'email_sent', '2026-11-05T09:00:00.000Z', { id: ids[0], account_id: 'em_1' });
    await b.reply(second, '2026-11-05T09:00:00.000Z', 'email', { sentiment: 'negative' });
    // A removed lead counts nowhere.
    await b.event(removed, 'email_sent', '2026-11-05T09:00:00.000Z', { account_id: 'em_1' });

    const from = '2026-11-04T00:00:00.000Z';
    const sums = await store().activity.senderSums(campaign.id, { from, ...senderRules });
    const credit = (account_id: string, channel: 'email' | 'linkedin', counts: Partial<SenderSum>): SenderSum => ({
      account_id,
      channel,
      sent: 0,
      contacted: 0,
      replied: 0,
      positive: 0,
      ...counts,
    });
    expect(sorted(sums)).toEqual([
      credit('em_1', 'email', { sent: 1, contacted: 1 }),
      credit('em_2', 'email', { sent: 1, contacted: 1, replied: 1, positive: 1 }),
      credit('em_3', 'email', { replied: 1 }),
      credit('li_x', 'linkedin', { sent: 1, contacted: 1 }),
      credit('li_y', 'linkedin', { replied: 1 }),
    ]);
    expect(sorted(senderSumsOf(await campaignRows(store(), campaign.id), from))).toEqual(sorted(sums));

    // Rules of the test's own: emails only; a LinkedIn reply credited to the LinkedIn sends.
    const rules: SenderRules = {
      sends: [{ kinds: ['email_sent'] }],
      replies: [
        {
          channel: 'linkedin',
          replied: { kinds: ['reply_received'], channel: 'linkedin' },
          positive: { kinds: ['reply_received'], channel: 'linkedin', replyClass: 'positive' },
        },
      ],
    };
    const own = await store().activity.senderSums(campaign.id, { from: null, ...rules });
    expect(sorted(own)).toEqual([
      credit('em_1', 'email', { sent: 2, contacted: 2 }),
      credit('li_y', 'linkedin', { replied: 1 }),
    ]);
    expect(sorted(senderSumsOf(await campaignRows(store(), campaign.id), null, rules))).toEqual(sorted(own));
  });

  it('an unknown campaign, or no rules, has nothing to sum', async () => {
    expect(await store().activity.senderSums(crypto.randomUUID(), { from: null, ...senderRules })).toEqual([]);
    expect(await store().activity.senderSums(crypto.randomUUID(), { from: null, sends: [], replies: [] })).toEqual([]);
  });
});
