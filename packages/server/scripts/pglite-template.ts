/**
 * Makes dist/pglite-template: a PGlite data directory with every migration applied (no
 * organization: the first start seeds its own demo organization), and its manifest (the
 * PGlite version, each migration's SQL hash). Run by `npm run build` after tsup; a new
 * data directory starts as a copy of it (src/store/sql/pglite-template.ts). Not committed:
 * about 40 MB, and made by the PGlite that is installed.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from '../src/store/sql/migrate.ts';
import { migrations } from '../src/store/sql/migrations/index.ts';
import { createPgliteClient } from '../src/store/sql/pglite-client.ts';
import {
  manifestName,
  migrationHash,
  pgliteVersion,
  type TemplateManifest,
  templateDirName,
} from '../src/store/sql/pglite-template.ts';

const started = performance.now();
const dist = new URL('../dist/', import.meta.url).pathname;
const target = join(dist, templateDirName);
const scratch = `${target}.tmp-${process.pid}`;
rmSync(target, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });
try {
  const client = await createPgliteClient(scratch);
  await migrate(client, migrations);
  // The databases the server never connects to: their files may be hard-linked.
  const neverWritten = (
    await client.query<{ oid: number }>(
      "select oid::int as oid from pg_database where datname in ('template0', 'template1') order by oid",
    )
  ).map((row) => `base/${row.oid}`);
  await client.query('checkpoint');
  await client.close();
  if (!existsSync(join(scratch, 'PG_VERSION'))) throw new Error(`no database was made in ${scratch}`);
  const manifest: TemplateManifest = {
    pglite: pgliteVersion(),
    migrations: [...migrations]
      .sort((a, b) => a.version - b.version)
      .map((migration) => ({ version: migration.version, sha256: migrationHash(migration) })),
    neverWritten,
  };
  writeFileSync(join(scratch, manifestName), `${JSON.stringify(manifest, null, 2)}\n`);
  try {
    renameSync(scratch, target);
  } catch (error) {
    // Another build that finished first made the same template: keep that one.
    if (!existsSync(join(target, manifestName))) throw error;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`pglite-template: ${target} (${Math.round(performance.now() - started)} ms)`);
