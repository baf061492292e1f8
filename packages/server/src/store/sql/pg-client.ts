/** SqlClient over a PostgreSQL server with a `pg` pool (Node only). */
import type { Pool, PoolClient } from 'pg';
import { type SqlClient, typeParsers } from './client.ts';
import { connectTimeoutMs } from './connect-timeout.ts';
import { savepoints } from './savepoint.ts';
import { isStalePlan, StatementNames } from './statement-names.ts';

export interface PgOptions {
  connectionString: string;
  /** Schema to use instead of `public` (tests give each suite its own). */
  schema?: string;
  max?: number;
  /** How long making a connection may take (default `connectTimeoutMs`). */
  connectTimeoutMs?: number;
}

export async function createPgClient(options: PgOptions): Promise<SqlClient> {
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser: (oid: number, format?: string) => typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
  };
  const timeoutMs = options.connectTimeoutMs ?? connectTimeoutMs;
  // A connection that is not made within `connectTimeoutMs` fails, rather than wait forever
  // on a host that accepts it and never speaks (something else than PostgreSQL on the port, a
  // firewall holding it): the server's start and every command would hang, unsaid. Set on the
  // client, not the pool, whose option of the same name would also end a request's wait for a
  // pooled connection under load.
  class TimedClient extends pg.Client {
    constructor(config?: ConstructorParameters<typeof pg.Client>[0]) {
      super({ ...(typeof config === 'object' ? config : {}), connectionTimeoutMillis: timeoutMs });
    }
  }
  const pool = new pg.Pool({
    Client: TimedClient,
    connectionString: options.connectionString,
    // A few connections more than the cores: PostgreSQL shares them with this process, and
    // more backends only add switching (8 served a third more GETs than 20 at 32 in flight).
    max: options.max ?? 8,
    // No JIT: every statement here reads one page, one campaign or one key, and JIT compiles
    // when the planner's estimate is high, which it is wherever statistics are missing. The
    // analytics aggregate (52,923 events) spent 878 ms compiling and 60 ms running.
    options: `-c TimeZone=UTC -c jit=off${options.schema ? ` -c search_path=${options.schema}` : ''}`,
    types: types as never,
  });
  // A connection the server closes while it sits idle here (a restart, an administrator's
  // pg_terminate_backend, an idle timeout) is reported as an 'error' event, which Node
  // throws when nobody listens: the whole server would stop. The pool has already dropped
  // that connection and opens another for the next statement, which reports any lasting
  // problem to its caller; nothing is lost here, so nothing more is done.
  pool.on('error', () => undefined);
  return wrapPool(pool, new StatementNames());
}

/** Runs `text` as a named (prepared) statement, once more under a new name if its plan went stale. */
async function queryNamed(
  target: Pool | PoolClient,
  names: StatementNames,
  text: string,
  params: readonly unknown[] | undefined,
): Promise<never[]> {
  const values = params as unknown[] | undefined;
  // Without parameters `pg` uses the simple protocol, which also runs scripts of several
  // statements (migrations); a prepared statement cannot hold those.
  if (!values || values.length === 0) return (await target.query(text)).rows as never[];
  try {
    return (await target.query({ name: names.nameFor(text), text, values })).rows as never[];
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    names.renew();
    return (await target.query({ name: names.nameFor(text), text, values })).rows as never[];
  }
}

function wrapPool(pool: Pool, names: StatementNames): SqlClient {
  return {
    kind: 'postgres',
    query: (text, params) => queryNamed(pool, names, text, params),
    exec: async (script) => void (await pool.query(script)),
    async transaction(work) {
      const connection = await pool.connect();
      try {
        await connection.query('begin');
        const result = await work(wrapConnection(connection, names));
        await connection.query('commit');
        return result;
      } catch (error) {
        await connection.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}

function wrapConnection(connection: PoolClient, names: StatementNames): SqlClient {
  const nested = savepoints((statement) => connection.query(statement));
  const client: SqlClient = {
    kind: 'postgres',
    query: (text, params) => queryNamed(connection, names, text, params),
    // Without values `pg` sends the text as one simple query, which may hold many statements.
    exec: async (script) => void (await connection.query(script)),
    transaction: (work) => nested(client, work),
    close: async () => undefined,
  };
  return client;
}
