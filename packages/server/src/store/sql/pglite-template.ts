/**
 * A migrated PGlite data directory made at build time (`dist/pglite-template/`, by
 * scripts/pglite-template.ts after tsup), copied into an empty data directory on its first
 * start: PGlite's initdb (a second WebAssembly instance running `initdb`) and the
 * migrations take seconds, a copy of the ~40 MB directory a fraction of that.
 *
 * The template is used only when it is sound for the code that runs: the same PGlite
 * version made it (the directory's format is PGlite's), and every migration it holds is one
 * of this build's, with the same SQL (compared by hash, so a migration edited after the
 * template was built makes the server create the database itself instead). The migrations
 * newer than the template are then applied by `migrate()` as on any existing directory
 * (`schema_migrations` in the template lists what it holds). Without a usable template
 * (not built, another PGlite, another migration) PGlite creates the database as before.
 * The template databases (template0, template1), which the server never connects to, are
 * hard-linked rather than copied when the file system allows it (decision 0016).
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, copyFileSync, cpSync, existsSync, linkSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Migration, migrations as allMigrations } from './migrations/index.ts';
import { makeDirectories } from './make-directories.ts';

export const templateDirName = 'pglite-template';
export const manifestName = 'ocs-template.json';

export interface TemplateManifest {
  /** The PGlite version that made the directory. */
  pglite: string;
  /** The migrations it holds: version and the SHA-256 of its SQL. */
  migrations: { version: number; sha256: string }[];
  /**
   * Directories (`base/1`, `base/4`: the databases template1 and template0) whose files the
   * server's PostgreSQL never writes, so a new data directory may hard-link them instead of
   * copying them (see `placeReadOnly`). Absent in a template made before decision 0016.
   */
  neverWritten?: string[];
}

export const migrationHash = (migration: Migration) => createHash('sha256').update(migration.sql).digest('hex');

/** The installed PGlite's version. */
export function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (manifest.name === '@electric-sql/pglite' && manifest.version) return manifest.version;
  }
  return 'unknown';
}

/**
 * The package's template directory: `dist/pglite-template` of @ocs/server, found upwards
 * from this module (src/store/sql/ when run from source, dist/ or dist/node/ when built).
 */
export function findTemplate(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let up = 0; up < 5; up++, dir = dirname(dir)) {
    for (const candidate of [join(dir, templateDirName), join(dir, 'dist', templateDirName)]) {
      if (existsSync(join(candidate, manifestName))) return candidate;
    }
  }
  return undefined;
}

/** Whether `template` may seed a data directory of this build (see the module's comment). */
export function templateIsSound(
  manifest: TemplateManifest,
  migrations: readonly Migration[] = allMigrations,
  version = pgliteVersion(),
): boolean {
  if (manifest.pglite !== version) return false;
  const current = new Map(migrations.map((migration) => [migration.version, migrationHash(migration)]));
  return manifest.migrations.every((held) => current.get(held.version) === held.sha256);
}

/**
 * Copies the template into `dataDir` when it holds no database yet (no `PG_VERSION`) and a
 * sound template is there. `PG_VERSION` is copied last, so a copy cut short leaves a
 * directory PGlite still sees as empty, still marked as new (`pglite-data-dir.ts`): the next
 * start copies again. Returns whether it copied.
 */
export function seedDataDirFromTemplate(dataDir: string, template = findTemplate()): boolean {
  if (!template || existsSync(join(dataDir, 'PG_VERSION'))) return false;
  let manifest: TemplateManifest;
  try {
    manifest = JSON.parse(readFileSync(join(template, manifestName), 'utf8')) as TemplateManifest;
  } catch {
    return false;
  }
  if (!templateIsSound(manifest)) return false;
  const neverWritten = new Set(manifest.neverWritten ?? []);
  for (const entry of readdirSync(template)) {
    if (entry === 'PG_VERSION' || entry === manifestName) continue;
    if (entry === 'base') {
      for (const database of readdirSync(join(template, entry))) {
        const path = join(entry, database);
        if (neverWritten.has(path)) placeReadOnly(join(template, path), join(dataDir, path));
        else cpSync(join(template, path), join(dataDir, path), { recursive: true, force: true });
      }
      continue;
    }
    cpSync(join(template, entry), join(dataDir, entry), { recursive: true, force: true });
  }
  cpSync(join(template, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
  return true;
}

/**
 * The files of a database the server never connects to (template0, template1), hard-linked
 * from the template: a file created costs about a millisecond on a busy disk (its inode, the
 * journal) and these are some 600 of the template's 1,100 files, while a link is a directory
 * entry. Safe because PostgreSQL writes a database's relation files only through that
 * database's buffers, which a session of another database never loads, and every WAL record
 * of the template precedes its checkpoint (nothing is replayed into them). A link that fails
 * (another file system, no permission) is a copy instead, as is a file the user could not
 * open for writing (PostgreSQL opens relation files read-write).
 */
function placeReadOnly(from: string, to: string): void {
  makeDirectories(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      placeReadOnly(source, target);
      continue;
    }
    try {
      accessSync(source, constants.R_OK | constants.W_OK);
      linkSync(source, target);
    } catch {
      copyFileSync(source, target, constants.COPYFILE_FICLONE);
    }
  }
}
