/**
 * Reads of one row by its ID, within an organization, that run at the same time share one
 * statement (`coalesce.ts`): `select * from <table> where id = any($1)`, and each caller gets
 * the row of its ID when that row is its organization's (another organization's row answers
 * null, as the single read's `organization_id = $1` did). Under load a burst of GETs then
 * costs a few statements instead of one each: on PostgreSQL a statement's own cost, in the
 * database and in the driver, was most of an authenticated GET's (decision 0019).
 *
 * For reads outside a transaction only: a read inside one must run on its connection, see
 * the transaction's own writes and take its locks, so the store reads alone there.
 */
import { coalescing } from './coalesce.ts';
import type { SqlClient } from './client.ts';

/** Statements of one table's reads in flight at once; the reads that arrive meanwhile go together. */
const readsInFlight = 2;

export interface ByIdQuery {
  /** `campaigns`, `leads`... (a constant of the store, never input). */
  table: string;
  /** More conditions on the row, as SQL (`and deleted_at is null`); a constant too. */
  condition?: string;
}

export type ReadById<Row> = (organizationId: string, id: string) => Promise<Row | null>;

export function readsById<Row extends { id: string; organization_id: string }>(
  client: SqlClient,
  { table, condition = '' }: ByIdQuery,
): ReadById<Row> {
  const read = coalescing(async (keys: Array<{ organizationId: string; id: string }>) => {
    const ids = [...new Set(keys.map((key) => key.id))];
    const rows = await client.query<Row>(`select * from ${table} where id = any($1::uuid[]) ${condition}`, [ids]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return keys.map(({ organizationId, id }) => {
      const row = byId.get(id);
      return row && row.organization_id === organizationId ? row : null;
    });
  }, readsInFlight);
  return (organizationId, id) => read({ organizationId, id });
}
