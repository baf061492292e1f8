/**
 * The store contract for pages bounded by size (decision 0006, "Sandbox pages bounded by
 * size"): with `maxTextBytes`, a page of sandbox messages or deliveries holds its rows in order
 * while their texts' UTF-8 bytes, added up, stay within it, and always its first row; `total`
 * still counts every row; without it, `limit` rows as before. The same assertions on memory,
 * PGlite and PostgreSQL, with texts whose characters take one to four bytes, so that the stores
 * are seen to count the same bytes.
 */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { activityBuilder } from '../support/activity.ts';
import { describeBackends } from '../support/backends.ts';
import { crmFixtures, oct } from '../support/crm-fixtures.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';
import { sandboxMessage } from '../support/sandbox-message.ts';

type Read = (page: { limit: number; offset: number }) => Promise<{ items: Array<{ id: string }>; total: number }>;

/** The pages of `read` from offset 0, each starting where the last one's rows end. */
async function walk(read: Read, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  for (let offset = 0; ;) {
    const page = await read({ limit, offset });
    if (page.items.length === 0) return pages;
    pages.push(page.items.map((row) => row.id));
    offset += page.items.length;
  }
}

/** IDs in order: `n` sorts before `n + 1`. */
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describeBackends('store contract: pages bounded by size', (store: () => Store) => {
  it('sandbox messages: subject and body bytes added up in order, the first message always', async () => {
    const f = await crmFixtures(store());
    const builder = activityBuilder(store(), f.organizationId, f.ownerId);
    const campaign = await builder.campaign();
    const [first, second] = [await builder.enrol(campaign), await builder.enrol(campaign)];
    // Bytes of subject and body: 4 + 6; 10 without a subject; 4 + 8 ('é' is 2 bytes); 1 + 24;
    // 0 + 8 ('👋' is 4 bytes, two UTF-16 units); 3 + 1.
    const texts: Array<[string | null, string]> = [
      ['Hiya', 'hello!'],
      [null, '0123456789'],
      ['Subj', 'ééabcd'],
      ['S', 'x'.repeat(24)],
      ['', '👋abcd'],
      ['abc', 'z'],
    ];
    for (const [n, [subject, body]] of texts.entries()) {
      const enrolment = n % 2 === 0 ? first : second;
      const where = { organization_id: f.organizationId, campaign_id: campaign.id, enrolment_id: enrolment.id };
      await store().messages.insert(
        sandboxMessage({ ...where, id: id(n), lead_id: enrolment.lead_id, sent_at: oct(1) }, { subject, body }),
      );
    }
    const list =
      (filter: { lead_id?: string; maxTextBytes?: number }): Read =>
      (page) =>
        store().messages.listForCampaign(campaign.id, { ...filter, ...page });

    // 10 + 10 = 20 fit; 12 more would not. The 25-byte message is a page of its own.
    expect(await walk(list({ maxTextBytes: 20 }), 100)).toEqual([[id(0), id(1)], [id(2)], [id(3)], [id(4), id(5)]]);
    // `limit` still bounds the page; each page says the whole list's total.
    expect(await walk(list({ maxTextBytes: 1000 }), 4)).toEqual([
      [id(0), id(1), id(2), id(3)],
      [id(4), id(5)],
    ]);
    expect((await list({ maxTextBytes: 20 })({ limit: 100, offset: 2 })).total).toBe(6);
    // A budget of one byte: a message a page.
    expect(await walk(list({ maxTextBytes: 1 }), 100)).toEqual([0, 1, 2, 3, 4, 5].map((n) => [id(n)]));
    // With the lead filter (12 + 8 = 20 fit, 10 + 12 do not).
    expect(await walk(list({ lead_id: first.lead_id, maxTextBytes: 20 }), 100)).toEqual([[id(0)], [id(2), id(4)]]);
    // Without a budget, `limit` rows whatever their size.
    expect(await walk(list({}), 100)).toEqual([[0, 1, 2, 3, 4, 5].map(id)]);
    const messages = (await list({ maxTextBytes: 20 })({ limit: 100, offset: 0 })).items;
    expect(messages.flatMap((message) => Object.keys(message).filter((key) => key.startsWith('_')))).toEqual([]);
    // Past the end: empty, with the total.
    expect(await list({ maxTextBytes: 20 })({ limit: 100, offset: 6 })).toEqual({ items: [], total: 6 });
  });

  it('deliveries: body bytes added up in order, the first delivery always, with their attempts', async () => {
    const f = await deliveryFixtures(store());
    const bodies = ['{"a":"1234"}', '{"a":"ééé"}', '{"a":"' + 'x'.repeat(40) + '"}', '{"a":"👋"}', '{}'];
    for (const [n, body] of bodies.entries()) await f.enqueue({ id: id(n), body });
    const list =
      (maxTextBytes?: number): Read =>
      (page) =>
        store().deliveries.listForCampaign(f.campaign.id, {
          ...page,
          ...(maxTextBytes === undefined ? {} : { maxTextBytes }),
        });
    // 12 + 14 = 26 within 30; the 48-byte body alone; 12 + 2.
    expect(await walk(list(30), 100)).toEqual([[id(0), id(1)], [id(2)], [id(3), id(4)]]);
    expect(await walk(list(), 100)).toEqual([[0, 1, 2, 3, 4].map(id)]);
    const page = await store().deliveries.listForCampaign(f.campaign.id, { limit: 100, offset: 0, maxTextBytes: 30 });
    expect(page.total).toBe(5);
    // The rows are records: the statement's own columns are not in them.
    expect(page.items.flatMap((delivery) => Object.keys(delivery).filter((key) => key.startsWith('_')))).toEqual([]);
    expect(page.items.map((delivery) => delivery.attempts)).toEqual([[], []]);
  });
});
