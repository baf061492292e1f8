/**
 * Where the Node entry keeps its data and listens, from flags and the environment:
 * `--database-url` / `DATABASE_URL` selects a PostgreSQL server, otherwise embedded PGlite in
 * `--data-dir` / `OCS_DATA_DIR` (default `.data/pglite` under the working directory). A flag
 * beats the environment: `--data-dir` chooses PGlite even when `DATABASE_URL` is set. Both
 * flags at once are a mistake.
 */
import { resolve } from 'node:path';
import { UsageError } from './cli-kit.ts';

export interface StoreLocation {
  databaseUrl?: string;
  dataDir: string;
}

export function storeLocation(flags: { 'database-url'?: string; 'data-dir'?: string }): StoreLocation {
  // Both flags: which store was meant? PostgreSQL was used and the directory ignored, unsaid.
  if (flags['database-url'] !== undefined && flags['data-dir'] !== undefined) {
    throw new UsageError('give --database-url (PostgreSQL) or --data-dir (embedded PGlite), not both.');
  }
  // `--data-dir` given, even empty (which the CLI refuses), never means PostgreSQL; an empty
  // variable counts as not set (`OCS_DATA_DIR=` is not the working directory).
  const databaseUrl = flags['database-url'] ?? (flags['data-dir'] !== undefined ? undefined : process.env.DATABASE_URL);
  const dataDir = resolve(flags['data-dir'] || process.env.OCS_DATA_DIR || '.data/pglite');
  return databaseUrl ? { databaseUrl, dataDir } : { dataDir };
}

export function describeLocation(location: StoreLocation): string {
  return location.databaseUrl
    ? `PostgreSQL at ${location.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`
    : `embedded PGlite in ${location.dataDir}`;
}
