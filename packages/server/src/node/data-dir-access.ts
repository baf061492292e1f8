/**
 * Why PGlite could not open a data directory, when the reason is a file this user may not
 * read or write (copied as another user, or a restored backup's modes): PGlite itself only
 * aborts ("Aborted()", "failed to initialize"), naming nothing. Looked for only after a
 * failure, so a start pays nothing for it.
 */
import { accessSync, constants, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectories } from '../store/sql/make-directories.ts';

/** The first file or directory under `dir` (itself included) this process may not read and write, or null. */
export function firstInaccessible(dir: string): string | null {
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = firstInaccessible(path);
        if (found) return found;
      } else if (entry.isFile()) {
        try {
          accessSync(path, constants.R_OK | constants.W_OK);
        } catch {
          return path;
        }
      }
    }
    return null;
  } catch {
    return dir;
  }
}

/** An error `environmentProblem` says in one line with what to do, naming the file. */
export function permissionProblem(path: string, dataDir: string): Error {
  return Object.assign(new Error(`permission denied: ${path}`), { code: 'EACCES', path, dataDir });
}

/**
 * Makes the data directory (and its parents); an error says it came from making it
 * (`unmadeDataDir`), so that `environmentProblem` names it with what to do, and an ENOENT from
 * elsewhere (a file of a broken install) is not blamed on `--data-dir`.
 */
export function makeDataDir(dataDir: string): void {
  try {
    makeDirectories(dataDir);
  } catch (error) {
    throw Object.assign(error as Error, { unmadeDataDir: dataDir });
  }
}
