/**
 * Opens the SQL store the Node entry runs on, creating PGlite's data directory if needed.
 * A PGlite directory is opened by one process at a time: the directory's lock is taken first
 * (docs/decisions/0004-one-writer-per-data-dir.md), and `DataDirHeldError` names the live
 * holder. The lock is released when the store closes, unless the caller passed its own.
 */
import { openSqlStore, type SqlStore } from '../store/sql/index.ts';
import { firstInaccessible, permissionProblem, makeDataDir } from './data-dir-access.ts';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import type { StoreLocation } from './options.ts';

export async function openStore(
  location: StoreLocation,
  options: { skipMigrations?: boolean; lock?: DataDirLock } = {},
): Promise<SqlStore> {
  const { lock: given, ...storeOptions } = options;
  if (location.databaseUrl) return openSqlStore({ databaseUrl: location.databaseUrl, ...storeOptions });
  makeDataDir(location.dataDir);
  if (given) {
    if (given.dataDir !== location.dataDir)
      throw new Error(`The lock given is for ${given.dataDir}, not ${location.dataDir}.`);
    return openPglite(location.dataDir, storeOptions);
  }
  const lock = await lockDataDir(location.dataDir, { command: 'a Node process (openStore)', waitMs: 10_000 });
  let store: SqlStore;
  try {
    store = await openPglite(location.dataDir, storeOptions);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    ...store,
    async close() {
      try {
        await store.close();
      } finally {
        lock.release();
      }
    },
  };
}

/** Opens PGlite; a failure caused by a file this user may not use is said as such (data-dir-access.ts). */
async function openPglite(dataDir: string, options: { skipMigrations?: boolean }): Promise<SqlStore> {
  try {
    return await openSqlStore({ dataDir, ...options });
  } catch (error) {
    const blocked = firstInaccessible(dataDir);
    throw blocked ? permissionProblem(blocked, dataDir) : error;
  }
}
