/**
 * What a PGlite data directory may be before PGlite opens it. A directory holding a database
 * (`PG_VERSION`) is opened; a new database is made (from the template, or by PGlite's initdb)
 * only in a directory that is empty but for the server's own files. A directory with other
 * files and no `PG_VERSION` is someone's files, or a data directory that lost `PG_VERSION`:
 * making a database there would write over them, so it is refused.
 *
 * A first start cut short (killed while the template was copied or initdb ran) leaves files
 * without `PG_VERSION`, too; a marker written before and removed after tells it apart, and
 * the next start makes the database again.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectories } from './make-directories.ts';

/** Present while a new database is being made in the directory. */
export const newDatabaseMarker = 'ocs-new-database';

/** Files the Node entry keeps in a data directory besides the database (its lock, its admin socket). */
const serverFiles = /^(ocs\.lock(\..*)?|ocs-admin\.sock)$/;

export class NotADataDirError extends Error {
  constructor(
    readonly dataDir: string,
    readonly found: string[],
  ) {
    const shown = found.slice(0, 3).join(', ') + (found.length > 3 ? ', …' : '');
    super(
      `${dataDir} is not an OCS data directory: it holds files (${shown}) but no database (no PG_VERSION). ` +
        `If it is a data directory, it is damaged: restore it from a backup; ` +
        `otherwise pass --data-dir with a new or empty directory.`,
    );
    this.name = 'NotADataDirError';
  }
}

/**
 * Checks `dataDir` before PGlite opens it; when it holds no database yet, marks it as being
 * made and returns the function that removes the mark once the database is there.
 */
export function prepareDataDir(dataDir: string): (() => void) | null {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return null;
  makeDirectories(dataDir);
  const entries = readdirSync(dataDir);
  const others = entries.filter((entry) => !serverFiles.test(entry) && entry !== newDatabaseMarker);
  if (others.length > 0 && !entries.includes(newDatabaseMarker)) throw new NotADataDirError(dataDir, others);
  const marker = join(dataDir, newDatabaseMarker);
  writeFileSync(marker, 'A new database is being made here; PG_VERSION comes last.\n');
  return () => rmSync(marker, { force: true });
}
