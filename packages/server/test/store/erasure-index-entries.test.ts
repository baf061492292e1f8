/**
 * After an erasure, the lead's email is in no index page of `leads_email` (decision 0003,
 * "Index entries"). A plain `VACUUM` skips index cleanup when dead rows sit on under 2 % of a
 * table's pages (PostgreSQL 14 on), so among a few thousand leads the erased lead's index entry,
 * which holds `lower(email)`, stayed in a live page. PostgreSQL only: it reads the pages with
 * `pageinspect` (a contrib extension of the server, created here when missing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('leaves no index entry holding the erased email, among 12,000 leads', async () => {
    const api = await createTestApi(store as SqlStore);
    // Enough leads that one erased row is under 2 % of the table's pages.
    const leads = Array.from({ length: 12_000 }, (_, n) => ({
      email: `lead-${String(n).padStart(5, '0')}@index.example`,
      first_name: 'Indexed',
      company: 'Pages Inc',
    }));
    const imported = await api.call<{ results: Array<{ lead_id: string }> }>('POST', '/v1/leads', {
      body: { leads },
    });
    expect(imported.status).toBe(207);
    await (store as SqlStore).client.query(`vacuum "${schema}".leads`);
    const erased = 'lead-01234@index.example';
    expect(await entriesHolding(erased)).toBe(1);
    expect(await entriesHolding('lead-01235@index.example')).toBe(1);

    const id = imported.body.results[1234]?.lead_id;
    expect((await api.call('DELETE', `/v1/leads/${id}`)).status).toBe(200);
    expect(await entriesHolding(erased)).toBe(0);
    // The other leads' entries are where they were.
    expect(await entriesHolding('lead-01235@index.example')).toBe(1);
  }, 60_000);
});
