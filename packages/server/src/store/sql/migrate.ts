/**
 * Applies the migrations a database lacks, in order, all in one transaction. An advisory
 * lock makes concurrent starts (several processes on one PostgreSQL) wait for one another
 * instead of racing.
 *
 * Each migration's SQL runs as one batch of statements (`SqlClient.exec`: PGlite's `exec`,
 * `pg`'s simple query protocol), never split by this runner: a function body quoted with
 * `$$` holds `;` at line ends, and only PostgreSQL's own parser knows where its statements
 * end.
 */
import type { SqlClient } from './client.ts';
import { type Migration, migrations as allMigrations } from './migrations/index.ts';

const lockId = 7_402_319; // any constant shared by every process of this service

export async function migrate(client: SqlClient, migrations: readonly Migration[] = allMigrations): Promise<number[]> {
  return client.transaction(async (tx) => {
    if (tx.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [lockId]);
    await tx.query(
      'create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
    );
    const rows = await tx.query<{ version: number }>('select version from schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      done.push(migration.version);
    }
    return done;
  });
}
