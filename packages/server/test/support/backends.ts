/**
 * The store backends every contract and API test runs on: memory and PGlite always, and a
 * PostgreSQL server when `DATABASE_URL` is set (CI sets it). Each PostgreSQL suite gets its
 * own schema, so test files run in parallel without seeing each other.
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { availableBackends, type Backend } from './stores.ts';

export { availableBackends, type Backend } from './stores.ts';

/** Defines the suite once per backend; `store()` is a fresh, empty store in each test. */
export function describeBackends(
  title: string,
  define: (store: () => Store, backend: Backend['name']) => void,
  backends: Backend[] = availableBackends(),
): void {
  for (const backend of backends) {
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

/** The same, on the SQL stores only (PGlite, and PostgreSQL with DATABASE_URL). */
export function describeSqlBackends(
  title: string,
  define: (store: () => Store, backend: Backend['name']) => void,
): void {
  describeBackends(
    title,
    define,
    availableBackends().filter((backend) => backend.name !== 'memory'),
  );
}
