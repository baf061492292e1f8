/** SqlClient over a PostgreSQL server with a `pg` pool (Node only). */
import type { Pool, PoolClient } from 'pg';
import { type SqlClient, typeParsers } from './client.ts';

export interface PgOptions {
  connectionString: string;
  /** Schema to use instead of `public` (tests give each suite its own). */
  schema?: string;
  max?: number;
}

export async function createPgClient(options: PgOptions): Promise<SqlClient> {
  const { default: pg } = await import('pg');
  const types = {
    getTypeParser: (oid: number, format?: string) => typeParsers[oid] ?? pg.types.getTypeParser(oid, format as 'text'),
  };
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 20,
    options: `-c TimeZone=UTC${options.schema ? ` -c search_path=${options.schema}` : ''}`,
    types: types as never,
  });
  return wrapPool(pool);
}

function wrapPool(pool: Pool): SqlClient {
  return {
    kind: 'postgres',
    async query(text, params) {
      const result = await pool.query(text, params as unknown[] | undefined);
      return result.rows;
    },
    async transaction(work) {
      const connection = await pool.connect();
      try {
        await connection.query('begin');
        const result = await work(wrapConnection(connection));
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

function wrapConnection(connection: PoolClient): SqlClient {
  const client: SqlClient = {
    kind: 'postgres',
    async query(text, params) {
      const result = await connection.query(text, params as unknown[] | undefined);
      return result.rows;
    },
    transaction: (work) => work(client),
    close: async () => undefined,
  };
  return client;
}
