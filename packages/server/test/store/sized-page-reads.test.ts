/**
 * A page bounded by size reads the texts it answers and no others (decision 0006, "Sandbox
 * pages bounded by size"): the SQL statement adds up `octet_length`, which PostgreSQL reads
 * from a value's header, and the rows it leaves out are never sent, so their texts are never
 * fetched from TOAST. Seen in PostgreSQL's own count of the blocks this transaction read from
 * the table's TOAST relation (`pg_stat_get_xact_blocks_fetched`): a page cut to one of three
 * large texts reads what a page of that one row reads. Nothing is timed.
 *
 * On PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlClient } from '../../src/store/sql/client.ts';
import { sqlStoreOn } from '../../src/store/sql/index.ts';
import type { SizedPageRequest, Store } from '../../src/store/types.ts';
import { activityBuilder } from '../support/activity.ts';
import { deliveryFixtures } from '../support/delivery-fixtures.ts';
import { sqlBackends, sqlStoreWithOrganization } from '../support/sql-store-with-organization.ts';
import { sandboxMessage } from '../support/sandbox-message.ts';

/** Text that does not compress (base64 of random bytes): PostgreSQL keeps it out of line, in TOAST. */
const largeText = () => randomBytes(150_000).toString('base64');
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Cost {
  rows: number;
  blocks: number;
}

/**
 * Runs `read` in a transaction and answers how many rows it gave and how many blocks of
 * `table`'s TOAST relation the transaction fetched meanwhile.
 */
async function toastBlocksRead(
  client: SqlClient,
  table: string,
  read: (store: Store) => Promise<{ items: unknown[] }>,
): Promise<Cost> {
  return client.transaction(async (tx) => {
    const fetched = async () => {
      const [row] = await tx.query<{ blocks: string }>(
        `select pg_stat_get_xact_blocks_fetched(reltoastrelid) as blocks from pg_class where oid = $1::regclass`,
        [table],
      );
      return Number(row?.blocks);
    };
    const before = await fetched();
    const { items } = await read(sqlStoreOn(tx, { inTransaction: true }));
    return { rows: items.length, blocks: (await fetched()) - before };
  });
}

type Read = (request: SizedPageRequest) => Promise<Cost>;

/** Each of the three rows read alone (a page of one at its offset): what reading its text costs. */
async function eachAlone(page: Read): Promise<[Cost, Cost, Cost]> {
  const alone: [Cost, Cost, Cost] = [
    await page({ limit: 1, offset: 0 }),
    await page({ limit: 1, offset: 1 }),
    await page({ limit: 1, offset: 2 }),
  ];
  expect(alone.map((read) => read.rows)).toEqual([1, 1, 1]);
  return alone;
}

describe.each(sqlBackends)('a page bounded by size reads only its own texts [$name]', ({ name }) => {
  const backend = sqlStoreWithOrganization(name, 'sized_page_reads');
  afterEach(() => backend.close());

  it('sandbox messages: the texts left out of the page are not read', async () => {
    const { store, org, ownerId } = await backend.open();
    const builder = activityBuilder(store, org.id, ownerId);
    const campaign = await builder.campaign();
    const enrolment = await builder.enrol(campaign);
    for (let n = 0; n < 3; n++) {
      const where = { organization_id: org.id, campaign_id: campaign.id, enrolment_id: enrolment.id };
      await store.messages.insert(
        sandboxMessage(
          { ...where, id: id(n), lead_id: enrolment.lead_id, sent_at: '2026-11-02T09:00:00.000Z' },
          { subject: 'Notes', body: largeText() },
        ),
      );
    }
    const page = (request: SizedPageRequest) =>
      toastBlocksRead(store.client, 'sandbox_messages', (tx) => tx.messages.listForCampaign(campaign.id, request));
    const [first, second, third] = await eachAlone(page);
    expect(first.blocks).toBeGreaterThan(10);
    expect(await page({ limit: 3, offset: 0 })).toEqual({
      rows: 3,
      blocks: first.blocks + second.blocks + third.blocks,
    });
    // Cut by size to one row, then to two: the texts read are those of the rows answered.
    expect(await page({ limit: 3, offset: 0, maxTextBytes: 1 })).toEqual(first);
    expect(await page({ limit: 3, offset: 0, maxTextBytes: 500_000 })).toEqual({
      rows: 2,
      blocks: first.blocks + second.blocks,
    });
  });

  it('deliveries: the bodies left out of the page are not read', async () => {
    const { store } = await backend.open();
    const f = await deliveryFixtures(store);
    for (let n = 0; n < 3; n++) await f.enqueue({ id: id(n), body: JSON.stringify({ notes: largeText() }) });
    const page = (request: SizedPageRequest) =>
      toastBlocksRead(store.client, 'deliveries', (tx) => tx.deliveries.listForCampaign(f.campaign.id, request));
    const [first, second, third] = await eachAlone(page);
    expect(first.blocks).toBeGreaterThan(10);
    expect(await page({ limit: 3, offset: 0 })).toEqual({
      rows: 3,
      blocks: first.blocks + second.blocks + third.blocks,
    });
    expect(await page({ limit: 3, offset: 0, maxTextBytes: 1 })).toEqual(first);
  });
});
