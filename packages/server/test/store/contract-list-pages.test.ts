/**
 * The store contract for the edges of every paged list (decision 0006, "Every list costs with
 * its page"): a page past the end is empty and still says the total, with and without each
 * filter; each filter keeps the list's order and counts its own rows; rows that tie on the
 * sort key are cut between pages by ID, none shared and none skipped. The same assertions on
 * memory, PGlite and PostgreSQL. (The lists' ordinary cases are in the contract tests of each
 * store; the leads' in contract-leads.test.ts.)
 */
import { expect, it } from 'vitest';
import type { SandboxMessageRecord, SenderAccountRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { activityBuilder } from '../support/activity.ts';
import { describeBackends } from '../support/backends.ts';
import { crmFixtures, oct } from '../support/crm-fixtures.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';
import { sandboxMessage } from '../support/sandbox-message.ts';

/** IDs in both orders (`0...`, `1...`, ... `f...`): a tie on the sort key is cut by them. */
const idStarting = (hex: string) => `${hex.repeat(8)}-0000-4000-8000-000000000000`;

type Page<T> = { items: T[]; total: number };
type Read<T> = (page: { limit: number; offset: number }) => Promise<Page<T>>;

/**
 * Reads `read` one row a page and two rows a page, then past the end: every page says
 * `expected.length`, the pages put together are `expected` in order, and the page past the
 * end (just past and far past) is empty.
 */
async function pagesAgree<T extends { id: string }>(read: Read<T>, expected: string[]): Promise<void> {
  for (const limit of [1, 2]) {
    const ids: string[] = [];
    for (let offset = 0; offset < expected.length; offset += limit) {
      const page = await read({ limit, offset });
      expect(page.total).toBe(expected.length);
      ids.push(...page.items.map((row) => row.id));
    }
    expect(ids).toEqual(expected);
  }
  expect(await read({ limit: 5, offset: expected.length })).toEqual({ items: [], total: expected.length });
  expect(await read({ limit: 5, offset: expected.length + 1000 })).toEqual({ items: [], total: expected.length });
}

function account(organizationId: string, overrides: Partial<SenderAccountRecord>): SenderAccountRecord {
  return {
    id: `acc_${crypto.randomUUID().slice(0, 8)}`,
    organization_id: organizationId,
    platform: 'linkedin',
    label: 'Sender',
    status: 'connected',
    email: null,
    platform_username: null,
    daily_limit: 40,
    email_auth: null,
    connected_at: oct(1),
    created_at: oct(1),
    ...overrides,
  };
}

describeBackends('store contract: list pages', (store: () => Store) => {
  it('accounts: each filter in order with its total, ties cut by code point, empty pages past the end', async () => {
    const f = await crmFixtures(store());
    const other = await crmFixtures(store());
    const records = [
      account(f.organizationId, { id: 'acc_never', connected_at: null, status: 'disconnected' }),
      account(f.organizationId, { id: 'acc_b', connected_at: oct(2), platform: 'email' }),
      account(f.organizationId, { id: 'acc_B', connected_at: oct(2) }),
      account(f.organizationId, { id: 'acc_a', connected_at: oct(2), platform: 'email', status: 'disconnected' }),
      account(f.organizationId, { id: 'acc_first', connected_at: oct(1) }),
      account(f.organizationId, { id: 'acc_Never', connected_at: null, platform: 'email', status: 'disconnected' }),
      account(other.organizationId, { id: 'acc_foreign', connected_at: oct(1) }),
    ];
    for (const record of records) await store().accounts.insert(record);
    const list =
      (filter: { platform?: 'email' | 'linkedin'; status?: 'connected' | 'disconnected' }): Read<SenderAccountRecord> =>
      (page) =>
        store().accounts.list(f.organizationId, { ...filter, ...page });
    await pagesAgree(list({}), ['acc_first', 'acc_B', 'acc_a', 'acc_b', 'acc_Never', 'acc_never']);
    await pagesAgree(list({ platform: 'email' }), ['acc_a', 'acc_b', 'acc_Never']);
    await pagesAgree(list({ platform: 'linkedin' }), ['acc_first', 'acc_B', 'acc_never']);
    await pagesAgree(list({ status: 'disconnected' }), ['acc_a', 'acc_Never', 'acc_never']);
    await pagesAgree(list({ platform: 'linkedin', status: 'connected' }), ['acc_first', 'acc_B']);
    await pagesAgree(list({ platform: 'email', status: 'connected' }), ['acc_b']);
    expect(await store().accounts.list(crypto.randomUUID(), { limit: 5, offset: 0 })).toEqual({ items: [], total: 0 });
  });

  it('campaigns: newest first, the active filter in order with its total, ties by id, empty pages past the end', async () => {
    const f = await crmFixtures(store());
    await (await crmFixtures(store())).campaign({ is_active: true });
    const active = { is_active: true };
    await f.campaign({ id: idStarting('1'), created_at: oct(3), ...active });
    await f.campaign({ id: idStarting('e'), created_at: oct(3) });
    await f.campaign({ id: idStarting('9'), created_at: oct(3), ...active });
    await f.campaign({ id: idStarting('2'), created_at: oct(2) });
    await f.campaign({ id: idStarting('5'), created_at: oct(4), ...active });
    const list =
      (filter: { is_active?: boolean }): Read<{ id: string }> =>
      (page) =>
        store().campaigns.list(f.organizationId, { ...filter, ...page });
    const ids = (...hex: string[]) => hex.map(idStarting);
    await pagesAgree(list({}), ids('5', 'e', '9', '1', '2'));
    await pagesAgree(list({ is_active: true }), ids('5', '9', '1'));
    await pagesAgree(list({ is_active: false }), ids('e', '2'));
  });

  it('deals: newest first, each filter in order with its total, ties by id, empty pages past the end', async () => {
    const f = await crmFixtures(store());
    await (await crmFixtures(store())).deal();
    const { stages } = await f.pipeline();
    const [open, won] = [stages[0]?.id, stages[2]?.id];
    const lead = await f.lead();
    await f.deal({ id: idStarting('3'), created_at: oct(2), stage_id: open, owner_id: f.ownerId });
    await f.deal({ id: idStarting('c'), created_at: oct(2), stage_id: won, lead_id: lead.id });
    await f.deal({ id: idStarting('7'), created_at: oct(2), stage_id: open, lead_id: lead.id, owner_id: f.ownerId });
    await f.deal({ id: idStarting('a'), created_at: oct(1), stage_id: open });
    await f.deal({ id: idStarting('0'), created_at: oct(3), owner_id: f.ownerId });
    const list =
      (filter: { stage_id?: string; owner_id?: string; lead_id?: string }): Read<{ id: string }> =>
      (page) =>
        store().deals.list(f.organizationId, { ...filter, ...page });
    const ids = (...hex: string[]) => hex.map(idStarting);
    await pagesAgree(list({}), ids('0', 'c', '7', '3', 'a'));
    await pagesAgree(list({ stage_id: open }), ids('7', '3', 'a'));
    await pagesAgree(list({ owner_id: f.ownerId }), ids('0', '7', '3'));
    await pagesAgree(list({ lead_id: lead.id }), ids('c', '7'));
    await pagesAgree(list({ stage_id: open, owner_id: f.ownerId, lead_id: lead.id }), ids('7'));
    await pagesAgree(list({ stage_id: crypto.randomUUID() }), []);
  });

  it('active pipelines and webhooks: oldest first, ties by id, empty pages past the end', async () => {
    const f = await crmFixtures(store());
    await (await crmFixtures(store())).pipeline();
    for (const [hex, day, is_active] of [
      ['d', 2, true],
      ['4', 2, true],
      ['8', 2, false],
      ['6', 1, true],
    ] as const) {
      await f.pipeline({ id: idStarting(hex), created_at: oct(day), is_active });
    }
    await pagesAgree((page) => store().pipelines.listActive(f.organizationId, page), ['6', '4', 'd'].map(idStarting));

    const campaign = await f.campaign();
    await f.webhook(await f.campaign());
    for (const [hex, day] of [
      ['b', 3],
      ['2', 3],
      ['f', 1],
    ] as const) {
      await f.webhook(campaign, { id: idStarting(hex), created_at: oct(day), enabled: false });
    }
    await pagesAgree((page) => store().webhooks.list(campaign.id, page), ['f', '2', 'b'].map(idStarting));
    await pagesAgree((page) => store().webhooks.list(crypto.randomUUID(), page), []);
  });

  it('sandbox messages: oldest first, the lead filter in order with its total, ties by id, empty pages past the end', async () => {
    const f = await crmFixtures(store());
    const builder = activityBuilder(store(), f.organizationId, f.ownerId);
    const campaign = await builder.campaign();
    const [first, second] = [await builder.enrol(campaign), await builder.enrol(campaign)];
    const message = (enrolment: typeof first, hex: string, sentAt: string): SandboxMessageRecord =>
      sandboxMessage({
        id: idStarting(hex),
        organization_id: f.organizationId,
        campaign_id: campaign.id,
        enrolment_id: enrolment.id,
        lead_id: enrolment.lead_id,
        sent_at: sentAt,
      });
    for (const record of [
      message(first, 'c', oct(2)),
      message(second, '1', oct(2)),
      message(first, '5', oct(2)),
      message(second, '9', oct(1)),
      message(first, '0', oct(3)),
    ]) {
      await store().messages.insert(record);
    }
    const list =
      (filter: { lead_id?: string }): Read<SandboxMessageRecord> =>
      (page) =>
        store().messages.listForCampaign(campaign.id, { ...filter, ...page });
    const ids = (...hex: string[]) => hex.map(idStarting);
    await pagesAgree(list({}), ids('9', '1', '5', 'c', '0'));
    await pagesAgree(list({ lead_id: first.lead_id }), ids('5', 'c', '0'));
    await pagesAgree(list({ lead_id: second.lead_id }), ids('9', '1'));
    await pagesAgree(list({ lead_id: crypto.randomUUID() }), []);
  });

  it('deliveries: oldest first, ties by id, empty pages past the end', async () => {
    const f = await deliveryFixtures(store());
    await (await deliveryFixtures(store())).enqueue();
    for (const [hex, day] of [
      ['e', 2],
      ['3', 2],
      ['7', 1],
      ['0', 3],
    ] as const) {
      await f.enqueue({ id: idStarting(hex), created_at: oct(day) });
    }
    await pagesAgree(
      (page) => store().deliveries.listForCampaign(f.campaign.id, page),
      ['7', '3', 'e', '0'].map(idStarting),
    );
    await pagesAgree((page) => store().deliveries.listForCampaign(crypto.randomUUID(), page), []);
  });
});
