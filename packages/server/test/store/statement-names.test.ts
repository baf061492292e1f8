/**
 * Prepared statements on PostgreSQL: names are bounded, and a statement whose table changed
 * under it (a migration by another process) is prepared again instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import { isStalePlan, planEachRun, StatementNames } from '../../src/store/sql/statement-names.ts';

describe('statement names', () => {
  it('names each text once, up to the limit, and renews every name', () => {
    const names = new StatementNames(2);
    const first = names.nameFor('select 1 where $1');
    expect(names.nameFor('select 1 where $1')).toBe(first);
    expect(names.nameFor('select 2 where $1')).not.toBe(first);
    expect(names.nameFor('select 3 where $1')).toBeUndefined();
    names.renew();
    const renewed = names.nameFor('select 1 where $1');
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(first);
  });

  it('never names a text that must be planned at every run', () => {
    const names = new StatementNames();
    expect(names.nameFor(`${planEachRun}select 1 where $1`)).toBeUndefined();
    expect(names.nameFor('select 1 where $1')).toBeDefined();
  });

  it('recognises only the stale-plan refusal', () => {
    expect(isStalePlan({ code: '0A000', message: 'cached plan must not change result type' })).toBe(true);
    expect(isStalePlan({ code: '0A000', message: 'something else' })).toBe(false);
    expect(isStalePlan(new Error('cached plan must not change result type'))).toBe(false);
  });
});

// Only with a PostgreSQL server (CI sets DATABASE_URL); PGlite does not prepare named statements.
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  describe('prepared statements on PostgreSQL', () => {
    const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
    let store: SqlStore | undefined;
    beforeAll(async () => {
      store = await openSqlStore({ databaseUrl, schema, skipMigrations: true });
    }, 60_000);
    afterAll(async () => {
      await store?.client.query(`drop schema "${schema}" cascade`);
      await store?.close();
    });

    it('answers with the new columns after a table changed under a prepared statement', async () => {
      if (!store) throw new Error('the PostgreSQL store did not open');
      const { client } = store;
      await client.query('create table t (a int)');
      await client.query('insert into t values (1)');
      // Every connection of the pool prepares the statement.
      const reads = () =>
        Promise.all(Array.from({ length: 12 }, () => client.query('select * from t where a = $1', [1])));
      expect((await reads())[0]).toEqual([{ a: 1 }]);
      await client.query('alter table t add column b int default 2');
      for (const rows of await reads()) expect(rows).toEqual([{ a: 1, b: 2 }]);
    });
  });
}
