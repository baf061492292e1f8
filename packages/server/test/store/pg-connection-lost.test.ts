/**
 * A PostgreSQL connection that the server closes while it sits idle in the pool (a restart,
 * `pg_terminate_backend`, an idle timeout, a dropped database) must not take the process
 * down: `pg`'s pool reports it as an 'error' event, which without a listener is thrown. The
 * pool drops the dead connection and the next statement opens another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';

// Only with a PostgreSQL server (CI sets DATABASE_URL); without one the suite is reported as
// skipped rather than left out, since a file without any suite fails to run.
const databaseUrl = process.env.DATABASE_URL ?? '';
describe.runIf(databaseUrl)('a pooled PostgreSQL connection closed by the server', () => {
  const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  let store: SqlStore | undefined;
  let admin: SqlStore | undefined;
  beforeAll(async () => {
    store = await openSqlStore({ databaseUrl, schema });
    admin = await openSqlStore({ databaseUrl, schema, skipMigrations: true });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await admin?.client.query(`drop schema if exists "${schema}" cascade`);
    await admin?.close();
  });

  it('is dropped from the pool without an uncaught error, and the next statements run', async () => {
    const open = store as SqlStore;
    // Several statements at once, so that the pool holds several idle connections.
    const pids = await Promise.all(
      Array.from({ length: 4 }, () =>
        open.client.query<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.05)'),
      ),
    );
    const backends = [...new Set(pids.map((rows) => rows[0]?.pid))];
    expect(backends.length).toBeGreaterThan(1);
    const errors: unknown[] = [];
    const record = (error: unknown) => errors.push(error);
    process.on('uncaughtException', record);
    try {
      await (admin as SqlStore).client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [
        backends,
      ]);
      // The pool hears of each closed connection on its socket, a moment later.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = await open.client.query<{ one: number }>('select 1 as one');
      expect(rows[0]?.one).toBe(1);
    } finally {
      process.off('uncaughtException', record);
    }
    expect(errors).toEqual([]);
  });
});
