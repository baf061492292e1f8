/** SqlClient over embedded PGlite (PostgreSQL in WebAssembly, one query at a time). */
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { type SqlClient, typeParsers } from './client.ts';
import { takePgliteArtifacts } from './pglite-artifacts.ts';
import { prepareDataDir } from './pglite-data-dir.ts';
import { useBaselineWasmOnly } from './pglite-wasm-tiering.ts';
import { savepoints } from './savepoint.ts';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(db: PGlite, queryable: Queryable): SqlClient {
  const nested = savepoints((statement) => queryable.query(statement));
  const client: SqlClient = {
    kind: 'pglite',
    async query(text, params) {
      // The parsers are given once, to PGlite.create: passed per query, PGlite would merge
      // them into its defaults on every query (a tenth of the CPU of a GET under load).
      const result = await queryable.query(text, params as unknown[] | undefined);
      return result.rows as never[];
    },
    async exec(script) {
      await queryable.exec(script);
    },
    transaction(work) {
      if (queryable !== db) return nested(client, work);
      return db.transaction((tx) => work(wrap(db, tx)));
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
  const db = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(await takePgliteArtifacts()),
    parsers: typeParsers,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${pgliteSharedBuffers}`],
  });
  made?.();
  await db.exec("set time zone 'UTC'");
  return wrap(db, db);
}
