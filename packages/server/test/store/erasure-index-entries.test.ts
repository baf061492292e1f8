/**
 * After an erasure, the lead's email is in no index page of `leads_email` (decision 0003,
 * "Index entries"). A plain `VACUUM` skips index cleanup when dead rows sit on under 2 % of a
 * table's pages (PostgreSQL 14 on), so among a few thousand leads the erased lead's index entry,
 * which holds `lower(email)`, stayed in a live page. And no vacuum removes it while a
 * transaction older than the erasure is open (the other test files' requests, on this
 * database, are such transactions): the store vacuums again once they have ended. PostgreSQL
 * only: it reads the pages with `pageinspect` (a contrib extension of the server, created
 * here when missing).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import { createTestApi } from '../support/api.ts';

const databaseUrl = process.env.DATABASE_URL ?? '';
describe.runIf(databaseUrl)('erasure and the email index (PostgreSQL)', () => {
  const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  let store: SqlStore | undefined;
  beforeAll(async () => {
    store = await openSqlStore({ databaseUrl, schema });
    await store.client.query('create extension if not exists pageinspect schema public');
  }, 60_000);
  afterAll(async () => {
    await store?.client.query(`drop schema if exists "${schema}" cascade`);
    await store?.close();
  });

  /** Index tuples of `leads_email`, in every page but the metapage, whose key holds `text`. */
  const entriesHolding = async (text: string) => {
    const [row] = await (store as SqlStore).client.query<{ entries: number }>(
      `select count(*)::int as entries
         from generate_series(1, (pg_relation_size('"${schema}".leads_email') / current_setting('block_size')::int - 1)::int) page,
              lateral public.bt_page_items('"${schema}".leads_email', page)
        where data is not null and position(convert_to($1, 'UTF8') in decode(replace(data, ' ', ''), 'hex')) > 0`,
      [text],
    );
    return row?.entries ?? -1;
  };

  /** 12,000 leads: enough that one erased row is under 2 % of the table's pages. */
  const importLeads = async (prefix: string) => {
    const api = await createTestApi(store as SqlStore);
    const leads = Array.from({ length: 12_000 }, (_, n) => ({
      email: `${prefix}-${String(n).padStart(5, '0')}@index.example`,
      first_name: 'Indexed',
      company: 'Pages Inc',
    }));
    const imported = await api.call<{ results: Array<{ lead_id: string }> }>('POST', '/v1/leads', {
      body: { leads },
    });
    expect(imported.status).toBe(207);
    await (store as SqlStore).client.query(`vacuum "${schema}".leads`);
    return { api, ids: imported.body.results.map((result) => result.lead_id) };
  };
  /** Until the store's later vacuum has run (other test files' transactions may hold the first). */
  const untilGone = (email: string) =>
    vi.waitFor(async () => expect(await entriesHolding(email)).toBe(0), { timeout: 30_000, interval: 100 });

  it('leaves no index entry holding the erased email, among 12,000 leads', async () => {
    const { api, ids } = await importLeads('lead');
    const erased = 'lead-01234@index.example';
    expect(await entriesHolding(erased)).toBe(1);
    expect(await entriesHolding('lead-01235@index.example')).toBe(1);

    expect((await api.call('DELETE', `/v1/leads/${ids[1234]}`)).status).toBe(200);
    await untilGone(erased);
    // The other leads' entries are where they were.
    expect(await entriesHolding('lead-01235@index.example')).toBe(1);
  }, 60_000);

  it('vacuums again once a transaction older than the erasure has ended', async () => {
    const { api, ids } = await importLeads('held');
    const erased = 'held-00042@index.example';
    // Another session's transaction, begun before the erasure: no vacuum may remove the row
    // versions it could still read.
    const older = new pg.Client({ connectionString: databaseUrl });
    await older.connect();
    try {
      await older.query('begin');
      await older.query('select pg_current_xact_id()');
      expect((await api.call('DELETE', `/v1/leads/${ids[42]}`)).status).toBe(200);
      // The vacuum after the erasure ran; the entry is held, whatever else runs meanwhile.
      expect(await entriesHolding(erased)).toBe(1);
      await older.query('commit');
    } finally {
      await older.end();
    }
    await untilGone(erased);
    expect(await entriesHolding('held-00043@index.example')).toBe(1);
  }, 60_000);
});
