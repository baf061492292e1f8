/**
 * The store backends every contract and API test runs on: memory and PGlite always, and a
 * PostgreSQL server when `DATABASE_URL` is set (CI sets it). Each PostgreSQL suite gets its
 * own schema, so test files run in parallel without seeing each other.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../../src/store/memory/index.ts';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';

export interface Backend {
  name: 'memory' | 'pglite' | 'postgres';
  open(): Promise<Store>;
  reset(store: Store): Promise<void>;
  close(store: Store): Promise<void>;
}

const memory: Backend = {
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

const pglite: Backend = {
  name: 'pglite',
  open: () => openSqlStore(),
  reset: truncateAll,
  close: (store) => store.close(),
};

function postgres(databaseUrl: string): Backend {
  const schemas = new WeakMap<Store, string>();
  return {
    name: 'postgres',
    async open() {
      const schema = `test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
      const store = await openSqlStore({ databaseUrl, schema });
      schemas.set(store, schema);
      return store;
    },
    reset: truncateAll,
    async close(store) {
      const schema = schemas.get(store);
      if (schema) await (store as SqlStore).client.query(`drop schema "${schema}" cascade`);
      await store.close();
    },
  };
}

export function availableBackends(): Backend[] {
  const databaseUrl = process.env.DATABASE_URL;
  return databaseUrl ? [memory, pglite, postgres(databaseUrl)] : [memory, pglite];
}

/** Defines the suite once per backend; `store()` is a fresh, empty store in each test. */
export function describeBackends(title: string, define: (store: () => Store, backend: Backend['name']) => void): void {
  for (const backend of availableBackends()) {
    describe(`${title} [${backend.name}]`, () => {
      let store: Store | undefined;
      beforeAll(async () => {
        store = await backend.open();
      }, 60_000);
      afterAll(async () => {
        if (store) await backend.close(store);
      });
      beforeEach(async () => {
        if (store) await backend.reset(store);
      });
      define(() => {
        if (!store) throw new Error(`the ${backend.name} store did not open`);
        return store;
      }, backend.name);
    });
  }
}
