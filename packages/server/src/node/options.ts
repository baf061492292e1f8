/**
 * Where the Node entry keeps its data and listens, from flags and the environment:
 * `--database-url` / `DATABASE_URL` selects a PostgreSQL server, otherwise embedded PGlite in
 * `--data-dir` / `OCS_DATA_DIR` (default `.data/pglite` under the working directory). A flag
 * beats the environment: `--data-dir` chooses PGlite even when `DATABASE_URL` is set. Both
 * flags at once are a mistake.
 */
import { resolve } from 'node:path';
import { UsageError } from './cli-kit.ts';
import { echoed, firstUnprintable, holdsUnprintable } from './echoed-value.ts';

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
  const givenDir = flags['data-dir'] || process.env.OCS_DATA_DIR;
  // A line break, tab or other control character (a pasted value): a directory made with it
  // in its name, and a URL read without it (the URL parser drops tabs and line breaks), so
  // not the one written. The URL is not repeated: it may hold a password.
  if (databaseUrl && holdsUnprintable(databaseUrl))
    throw new UsageError(
      `${flags['database-url'] !== undefined ? '--database-url' : 'DATABASE_URL'} holds a line break or another control character; give the URL without it.`,
    );
  const unprintableInDir = givenDir ? firstUnprintable(givenDir) : null;
  if (givenDir && unprintableInDir !== null)
    throw new UsageError(
      `${flags['data-dir'] ? '--data-dir' : 'OCS_DATA_DIR'} must be a path without line breaks or other control characters (it holds ${unprintableInDir}), got '${echoed(givenDir)}'.`,
    );
  const dataDir = resolve(givenDir || '.data/pglite');
  return databaseUrl ? { databaseUrl, dataDir } : { dataDir };
}

export function describeLocation(location: StoreLocation): string {
  return location.databaseUrl
    ? `PostgreSQL at ${location.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`
    : `embedded PGlite in ${location.dataDir}`;
}
