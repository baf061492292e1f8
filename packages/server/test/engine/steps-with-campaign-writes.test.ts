/**
 * The engine's steps while the campaign itself is written: its senders replaced and its name
 * changed, many at once. A step locks its account (to count the account's messages of the
 * day again: two engines on one database) and its event's foreign key takes a share of the
 * campaign's row; a sender change locks the campaign, then the accounts. With the campaign
 * locked `for update` the two waited for each other, and PostgreSQL broke the deadlock by
 * failing one side: a 500 for the request, or a failed round (found by an attack, 2026-11-28:
 * 500s in 9 of 10 tries). Campaign writers lock `for no key update`, which the foreign key's
 * share does not wait for.
 */
import { expect, it } from 'vitest';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, emailSequence } from '../support/campaign-setup.ts';
import { activate, assignSenders, days, engineHarness, enrolledLead, later } from './engine-setup.ts';

describeBackends('steps while the campaign is written', (store) => {
  it('runs the rounds and answers every sender change and rename, none failing', async () => {
    const h = await engineHarness(store());
    const accounts = await demoAccounts(h.api);
    const campaignId = await createCampaign(h.api, { name: 'Locks', sequence: emailSequence(3) });
    await assignSenders(h.api, campaignId, [accounts.email.id]);
    for (let i = 0; i < 30; i += 1) await enrolledLead(h.api, campaignId, {});
    await activate(h.api, campaignId);
    for (let round = 0; round < 4; round += 1) {
      const writes = Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? h.api.call('PUT', `/v1/campaigns/${campaignId}/senders`, { body: { account_ids: [accounts.email.id] } })
          : h.api.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { name: `Locks ${round}.${i}` } }),
      );
      const [ran, ...answers] = await Promise.all([h.engine.advanceTo(later(h.clock, days(1))), ...writes]);
      expect(answers.map((answer) => answer.status)).toEqual(writes.map(() => 200));
      expect(ran).toBeDefined();
    }
    const sent = await store().activity.listForCampaign(campaignId, { kinds: ['email_sent'] });
    expect(sent.length).toBeGreaterThan(0);
  });
});
