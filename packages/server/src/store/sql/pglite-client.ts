/**
 * SqlClient over embedded PGlite (PostgreSQL in WebAssembly, one query at a time). A data
 * directory whose files are damaged is thrown as `DamagedDataDirError` (pglite-damage.ts).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { type SqlClient, typeParsers } from './client.ts';
import { takePgliteArtifacts } from './pglite-artifacts.ts';
import { damageOf, startupComplaints } from './pglite-damage.ts';
import { prepareDataDir } from './pglite-data-dir.ts';
import { useBaselineWasmOnly } from './pglite-wasm-tiering.ts';
import { savepoints } from './savepoint.ts';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

/**
 * `dataDir`: a page PostgreSQL cannot read there (SQLSTATE XX001/XX002) is thrown as
 * `DamagedDataDirError` (pglite-damage.ts), naming the directory; other errors as they are.
 */
function wrap(db: PGlite, queryable: Queryable, dataDir?: string): SqlClient {
  const nested = savepoints((statement) => queryable.query(statement));
  const said = (error: unknown) => (dataDir ? (damageOf(error, dataDir) ?? error) : error);
  const client: SqlClient = {
    kind: 'pglite',
    async query(text, params) {
      try {
        // The parsers are given once, to PGlite.create: passed per query, PGlite would merge
        // them into its defaults on every query (a tenth of the CPU of a GET under load).
        const result = await queryable.query(text, params as unknown[] | undefined);
        return result.rows as never[];
      } catch (error) {
        throw said(error);
      }
    },
    async exec(script) {
      try {
        await queryable.exec(script);
      } catch (error) {
        throw said(error);
      }
    },
    transaction(work) {
      if (queryable !== db) return nested(client, work);
      return db.transaction((tx) => work(wrap(db, tx, dataDir)));
    },
    close: () => db.close(),
  };
  return client;
}

/**
 * PostgreSQL's `shared_buffers` for PGlite: PostgreSQL's default of 128 MB is zeroed when
 * the database starts, so it was all resident in the server process (about 150 MB of its
 * idle RSS). 8 MB (1,024 pages) holds the catalogs and the hot rows of a development
 * database; PGlite reads the rest from the data directory's files, which the OS page cache
 * keeps (a read then costs a system call and a copy, not a disk access). 16 MB before
 * decision 0016: the 8 MB less were most of what kept the idle RSS above its target.
 */
export const pgliteSharedBuffers = '8MB';

export async function createPgliteClient(dataDir?: string): Promise<SqlClient> {
  useBaselineWasmOnly();
  const { PGlite } = await import('@electric-sql/pglite');
  // Never a new database over files that are there (`pglite-data-dir.ts`).
  const made = dataDir ? prepareDataDir(dataDir) : null;
  // An empty data directory starts from the migrated template the build made, when sound.
  if (dataDir && made) (await import('./pglite-template.ts')).seedDataDirFromTemplate(dataDir);
  // A database that was there and will not open is damaged: PostgreSQL says why on its stderr.
  const existing = dataDir && !made ? dataDir : undefined;
  const complaints = startupComplaints();
  const pidFile = existing ? join(existing, 'postmaster.pid') : undefined;
  const hadPidFile = pidFile !== undefined && existsSync(pidFile);
  // `new` and `waitReady` (what PGlite.create does) rather than `create`, to keep the instance
  // when opening fails after PostgreSQL started (PGlite's first catalog read failing).
  const db = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(await takePgliteArtifacts()),
    parsers: typeParsers,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${pgliteSharedBuffers}`],
    ...(existing ? { onStderr: complaints.hear } : {}),
  });
  try {
    await db.waitReady;
  } catch (error) {
    // Shut down as PostgreSQL would (no crash recovery at the next start, which would reset
    // the unlogged tables); after a PANIC there is nothing to shut down, and the lock file
    // PostgreSQL wrote is removed, so that the directory is left as it was.
    if (db.ready && !db.closed) await db.close().catch(() => undefined);
    if (pidFile && !hadPidFile) rmSync(pidFile, { force: true });
    throw (existing && damageOf(error, existing, complaints.complaint)) || error;
  } finally {
    complaints.stop();
  }
  made?.();
  const client = wrap(db, db, dataDir);
  await client.exec("set time zone 'UTC'");
  return client;
}
