import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * `mkdir -p`: the directory and its missing parents, one level at a time. Not
 * `mkdirSync(path, { recursive: true })`: on Node 20 that never returns for a missing path under
 * `/proc` (`mkdir` there answers ENOENT, and Node retries the parent and the child for ever,
 * synchronously, so even SIGTERM is not handled). Here each missing level is made once, and an
 * error other than "exists" is thrown as it came, for the caller's one line. `mode`, when given,
 * is each made directory's (as `recursive` applies it).
 */
export function makeDirectories(path: string, mode?: number): void {
  // A path the system cannot take (ENAMETOOLONG) fails here, before any level is made: the
  // walk below would make every level short enough and leave them behind (found by a review).
  statSync(resolve(path), { throwIfNoEntry: false });
  const missing: string[] = [];
  for (let dir = resolve(path); !existsSync(dir); dir = dirname(dir)) {
    missing.push(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, mode === undefined ? undefined : { mode });
    } catch (error) {
      // Made meanwhile by another process: fine, as with `recursive`.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // As `recursive` does: a file in the directory's place is an error.
  if (!statSync(path).isDirectory()) {
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${path}'`), { code: 'EEXIST', path });
  }
}
