/**
 * A scratch PostgreSQL database per bench, created from DATABASE_URL and dropped at the end,
 * so that benches neither read nor leave rows in the database that tests share.
 */
import pg from 'pg';

export interface ScratchDatabase {
  /** DATABASE_URL with the scratch database's name. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(url: string, prefix = 'ocs_bench'): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(url, (client) => client.query(`create database "${name}"`));
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    name,
    // (force): a server process that did not close its pool in time does not keep it alive.
    drop: () =>
      admin(url, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
