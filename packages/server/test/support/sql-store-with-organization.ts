/**
 * For store tests that need a real SQL store: PGlite, and PostgreSQL when DATABASE_URL is set
 * (in a schema of its own, dropped after each test), each opened with one organization.
 */
import { createOrganization } from '../../src/seed/organizations.ts';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';

const databaseUrl = process.env.DATABASE_URL;

/** The SQL backends to run on, for `describe.each`. */
export const sqlBackends = [{ name: 'pglite' }, ...(databaseUrl ? [{ name: 'postgres' }] : [])];

/**
 * `open()` gives the backend's store with one organization (and its owner's ID); `close()`,
 * for `afterEach`, closes it (dropping its PostgreSQL schema first).
 */
export function sqlStoreWithOrganization(backend: string, schemaPrefix: string) {
  const schema = `${schemaPrefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let store: SqlStore | undefined;
  return {
    async open() {
      const opened = backend === 'postgres' ? await openSqlStore({ databaseUrl, schema }) : await openSqlStore();
      store = opened;
      const ownerId = crypto.randomUUID();
      const org = await createOrganization(opened, {
        name: 'Northwind Outreach',
        members: [{ id: ownerId, email: 'owner@northwind.example', name: 'Olivia Owner', role: 'owner' }],
      });
      return { store: opened, org, ownerId };
    },
    async close() {
      if (store && backend === 'postgres') await store.client.query(`drop schema if exists "${schema}" cascade`);
      await store?.close();
      store = undefined;
    },
  };
}
