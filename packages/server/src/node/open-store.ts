/** Opens the SQL store the Node entry runs on, creating PGlite's data directory if needed. */
import { mkdirSync } from 'node:fs';
import { openSqlStore, type SqlStore } from '../store/sql/index.ts';
import type { StoreLocation } from './options.ts';

export async function openStore(
  location: StoreLocation,
  options: { skipMigrations?: boolean } = {},
): Promise<SqlStore> {
  if (location.databaseUrl) return openSqlStore({ databaseUrl: location.databaseUrl, ...options });
  mkdirSync(location.dataDir, { recursive: true });
  return openSqlStore({ dataDir: location.dataDir, ...options });
}
