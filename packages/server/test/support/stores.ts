/**
 * The store backends tests and tools run on, without a test runner: memory, PGlite, and a
 * PostgreSQL server in a schema of its own (dropped when the store is closed). backends.ts
 * defines suites over them; the fuzzer's command line opens one by name.
 */
import { createMemoryStore, type MemoryStore } from '../../src/store/memory/index.ts';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';

export interface Backend {
  name: 'memory' | 'pglite' | 'postgres';
  open(): Promise<Store>;
  reset(store: Store): Promise<void>;
  close(store: Store): Promise<void>;
  /** Where an open store keeps its data, when it is somewhere to clean up (a PostgreSQL schema). */
  where?(store: Store): string | undefined;
}

export const memory: Backend = {
  name: 'memory',
  open: async () => createMemoryStore(),
  reset: async (store) => (store as MemoryStore).clear(),
  close: async () => undefined,
};

async function truncateAll(store: Store): Promise<void> {
  const { client } = store as SqlStore;
  const tables = await client.query<{ table_name: string }>(
    `select table_name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name <> 'schema_migrations'`,
  );
  if (tables.length > 0) await client.query(`truncate ${tables.map((t) => `"${t.table_name}"`).join(', ')} cascade`);
}

export const pglite: Backend = {
  name: 'pglite',
  open: () => openSqlStore(),
  reset: truncateAll,
  close: (store) => store.close(),
};

export function postgres(databaseUrl: string): Backend {
  const schemas = new WeakMap<Store, string>();
  return {
    name: 'postgres',
    async open() {
      const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
      let store: SqlStore;
      try {
        store = await openSqlStore({ databaseUrl, schema });
      } catch (error) {
        // The schema is made before the migrations run in it: not left behind when they fail.
        await dropSchema(databaseUrl, schema).catch(() => undefined);
        throw error;
      }
      schemas.set(store, schema);
      return store;
    },
    reset: truncateAll,
    async close(store) {
      const schema = schemas.get(store);
      if (schema) await (store as SqlStore).client.query(`drop schema "${schema}" cascade`);
      await store.close();
    },
    where: (store) => {
      const schema = schemas.get(store);
      return schema && `PostgreSQL schema ${schema}`;
    },
  };
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const { createPgClient } = await import('../../src/store/sql/pg-client.ts');
  const admin = await createPgClient({ connectionString: databaseUrl, max: 1 });
  try {
    await admin.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await admin.close();
  }
}

export function availableBackends(): Backend[] {
  const databaseUrl = process.env.DATABASE_URL;
  return databaseUrl ? [memory, pglite, postgres(databaseUrl)] : [memory, pglite];
}
