/**
 * The migration runner hands each migration's SQL to the database whole: a function body
 * quoted with `$$`, whose statements end in `;` at line ends, is created as written (a runner
 * that split the script on `;` would send PostgreSQL the body's halves). Synthetic migrations
 * on a bare database, on PGlite and on PostgreSQL when DATABASE_URL is set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import type { Migration } from '../../src/store/sql/migrations/index.ts';

const databaseUrl = process.env.DATABASE_URL;
const backends = [{ name: 'pglite' }, ...(databaseUrl ? [{ name: 'postgres' }] : [])];

/** A table, a PL/pgSQL trigger function of several statements and its trigger. */
const withFunctionBody: Migration = {
  version: 1,
  name: 'function-body',
  sql: /* sql */ `
-- A comment; with a semicolon.
create table notes (id integer primary key, body text not null, words integer);

create function notes_count_words() returns trigger language plpgsql as $$
begin
  if trim(new.body) = '' then
    raise exception 'empty note';
  end if;
  new.words := array_length(regexp_split_to_array(trim(new.body), '\\s+'), 1);
  return new;
end;
$$;

create trigger notes_count_words before insert or update on notes
  for each row execute function notes_count_words();
`,
};

const second: Migration = {
  version: 2,
  name: 'second',
  sql: `alter table notes add column tag text; update notes set tag = 'old';`,
};

describe.each(backends)('migrate [$name]', ({ name }) => {
  let store: SqlStore | undefined;
  const schema = `migrate_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  afterEach(async () => {
    if (store && name === 'postgres') await store.client.query(`drop schema if exists "${schema}" cascade`);
    await store?.close();
    store = undefined;
  });

  const open = async () =>
    name === 'postgres'
      ? await openSqlStore({ databaseUrl, schema, skipMigrations: true })
      : await openSqlStore({ skipMigrations: true });

  it('creates a function whose $$ body holds statements ending in `;`', async () => {
    store = await open();
    const { client } = store;
    expect(await migrate(client, [withFunctionBody])).toEqual([1]);

    await client.query('insert into notes (id, body) values ($1, $2)', [1, 'three short words']);
    const [row] = await client.query<{ words: number }>('select words from notes where id = 1');
    expect(row?.words).toBe(3);
    // The function's second statement ran too: its `if` refuses an empty note.
    await expect(client.query('insert into notes (id, body) values ($1, $2)', [2, '   '])).rejects.toThrow(
      /empty note/,
    );
    const recorded = await client.query<{ version: number; name: string }>(
      'select version, name from schema_migrations order by version',
    );
    expect(recorded).toEqual([{ version: 1, name: 'function-body' }]);
  });

  it('applies only what a database lacks, several statements of one line included', async () => {
    store = await open();
    const { client } = store;
    await migrate(client, [withFunctionBody]);
    await client.query('insert into notes (id, body) values ($1, $2)', [1, 'kept']);

    expect(await migrate(client, [second, withFunctionBody])).toEqual([2]);
    expect(await migrate(client, [withFunctionBody, second])).toEqual([]);
    expect(await client.query('select id, words, tag from notes')).toEqual([{ id: 1, words: 1, tag: 'old' }]);
  });

  it('a failing migration leaves nothing behind: its statements and the ones before it roll back', async () => {
    store = await open();
    const { client } = store;
    const broken: Migration = { version: 3, name: 'broken', sql: 'create table kept_out (id integer); select 1/0;' };
    await expect(migrate(client, [withFunctionBody, broken])).rejects.toThrow(/division by zero/);
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = current_schema() and table_name in ('notes', 'kept_out', 'schema_migrations')`,
    );
    expect(tables).toEqual([]);
  });
});
