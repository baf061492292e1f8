/**
 * The store contract for webhooks: the same assertions on memory, PGlite and PostgreSQL
 * (reads scoped to the campaign, ordering, paging, and the two uniqueness guarantees the
 * registration rules rely on: one enabled webhook per campaign, one row per URL).
 */
import { expect, it } from 'vitest';
import { UniqueViolation, uniqueConstraints } from '../../src/store/errors.ts';
import { describeBackends } from '../support/backends.ts';
import { crmFixtures, oct } from '../support/crm-fixtures.ts';

const violation = (constraint: string) => expect.objectContaining({ name: 'UniqueViolation', constraint });

describeBackends('store contract: webhooks', (store) => {
  it('reads a webhook by ID and by URL within its campaign only', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    const other = await f.campaign();
    const webhook = await f.webhook(campaign, { secret: null });
    expect(await store().webhooks.get(campaign.id, webhook.id)).toEqual(webhook);
    expect(await store().webhooks.get(other.id, webhook.id)).toBeNull();
    expect(await store().webhooks.findByUrl(campaign.id, webhook.url)).toEqual(webhook);
    expect(await store().webhooks.findByUrl(other.id, webhook.url)).toBeNull();
    expect(await store().webhooks.findByUrl(campaign.id, `${webhook.url}/`)).toBeNull();
  });

  it('lists oldest first, ties by id, disabled included, with the total across pages', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    const late = await f.webhook(campaign, { created_at: oct(9) });
    const tiedHigh = await f.webhook(campaign, {
      id: 'ffffffff-0000-4000-8000-000000000000',
      enabled: false,
      created_at: oct(8),
    });
    const tiedLow = await f.webhook(campaign, {
      id: '00000000-0000-4000-8000-000000000000',
      enabled: false,
      created_at: oct(8),
    });
    await f.webhook(await f.campaign());
    expect(await store().webhooks.list(campaign.id, { limit: 10, offset: 0 })).toEqual({
      items: [tiedLow, tiedHigh, late],
      total: 3,
    });
    expect(await store().webhooks.list(campaign.id, { limit: 2, offset: 1 })).toEqual({
      items: [tiedHigh, late],
      total: 3,
    });
    expect(await store().webhooks.list(campaign.id, { limit: 2, offset: 5 })).toEqual({ items: [], total: 3 });
    expect(await store().webhooks.listEnabled(campaign.id)).toEqual([late]);
  });

  it('updates URL, secret and status within the campaign only', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    const webhook = await f.webhook(campaign);
    expect(await store().webhooks.update((await f.campaign()).id, webhook.id, { enabled: false })).toBeNull();
    const updated = await store().webhooks.update(campaign.id, webhook.id, {
      url: 'https://crm.example.com/replies',
      secret: 'whsec_rotated_secret_0123456789',
      enabled: false,
      updated_at: oct(20),
    });
    expect(updated).toEqual({
      ...webhook,
      url: 'https://crm.example.com/replies',
      secret: 'whsec_rotated_secret_0123456789',
      enabled: false,
      updated_at: oct(20),
    });
    expect(await store().webhooks.get(campaign.id, webhook.id)).toEqual(updated);
  });

  it('refuses a second enabled webhook on a campaign, on insert and on update', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    await f.webhook(campaign);
    await expect(f.webhook(campaign)).rejects.toBeInstanceOf(UniqueViolation);
    await expect(f.webhook(campaign)).rejects.toEqual(violation(uniqueConstraints.webhookSlot));
    const disabled = await f.webhook(campaign, { enabled: false });
    await expect(store().webhooks.update(campaign.id, disabled.id, { enabled: true })).rejects.toEqual(
      violation(uniqueConstraints.webhookSlot),
    );
    // Other campaigns have slots of their own.
    await f.webhook(await f.campaign());
  });

  it('refuses a URL twice on a campaign, enabled or not, on insert and on update', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    const first = await f.webhook(campaign, { enabled: false });
    await expect(f.webhook(campaign, { url: first.url })).rejects.toEqual(violation(uniqueConstraints.webhookUrl));
    const second = await f.webhook(campaign, { enabled: false });
    await expect(store().webhooks.update(campaign.id, second.id, { url: first.url })).rejects.toEqual(
      violation(uniqueConstraints.webhookUrl),
    );
    await f.webhook(await f.campaign(), { url: first.url });
  });

  it('moves the slot in a transaction when the holder is disabled first', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    const holder = await f.webhook(campaign);
    const waiting = await f.webhook(campaign, { enabled: false });
    await store().transaction(async (tx) => {
      await tx.webhooks.update(campaign.id, holder.id, { enabled: false });
      await tx.webhooks.update(campaign.id, waiting.id, { enabled: true });
    });
    expect((await store().webhooks.listEnabled(campaign.id)).map((w) => w.id)).toEqual([waiting.id]);
  });

  it('leaves nothing of a transaction that broke a uniqueness guarantee', async () => {
    const f = await crmFixtures(store());
    const campaign = await f.campaign();
    const holder = await f.webhook(campaign);
    const failed = store().transaction(async (tx) => {
      await tx.webhooks.update(campaign.id, holder.id, { url: 'https://changed.example.com/' });
      await tx.webhooks.insert({ ...holder, id: crypto.randomUUID(), url: 'https://new.example.com/' });
    });
    await expect(failed).rejects.toEqual(violation(uniqueConstraints.webhookSlot));
    expect(await store().webhooks.list(campaign.id, { limit: 10, offset: 0 })).toEqual({ items: [holder], total: 1 });
  });
});
