/**
 * Insert and update statements built from records, so that each store method states only
 * its table, its key and which columns hold JSON. Column names come from our own record
 * types, never from callers' input.
 */
import type { SqlClient } from './client.ts';

type Row = Record<string, unknown>;

function toParam(column: string, value: unknown, jsonColumns: ReadonlySet<string>): unknown {
  if (jsonColumns.has(column)) return value === null || value === undefined ? null : JSON.stringify(value);
  return value;
}

export async function insertRow(
  client: SqlClient,
  table: string,
  record: object,
  jsonColumns: ReadonlySet<string> = new Set(),
): Promise<void> {
  const entries = Object.entries(record).filter(([, value]) => value !== undefined);
  const columns = entries.map(([column]) => column).join(', ');
  const placeholders = entries.map(([column], i) => (jsonColumns.has(column) ? `$${i + 1}::jsonb` : `$${i + 1}`));
  await client.query(
    `insert into ${table} (${columns}) values (${placeholders.join(', ')})`,
    entries.map(([column, value]) => toParam(column, value, jsonColumns)),
  );
}

/**
 * Updates the rows matching `where` (column equality; `null` is `is null`) with `patch`, returning the updated
 * row or null when none matched.
 */
export async function updateRow<T>(
  client: SqlClient,
  table: string,
  where: Row,
  patch: object,
  jsonColumns: ReadonlySet<string> = new Set(),
): Promise<T | null> {
  const sets = Object.entries(patch).filter(([, value]) => value !== undefined);
  const params: unknown[] = [];
  const assignments = sets.map(([column, value]) => {
    params.push(toParam(column, value, jsonColumns));
    return `${column} = $${params.length}${jsonColumns.has(column) ? '::jsonb' : ''}`;
  });
  // A condition `null` is `is null` (`deleted_at: null`: only a live row).
  const filters = Object.entries(where).map(([column, value]) => {
    if (value === null) return `${column} is null`;
    params.push(value);
    return `${column} = $${params.length}`;
  });
  if (sets.length === 0) {
    const rows = await client.query<T>(`select * from ${table} where ${filters.join(' and ')}`, params);
    return rows[0] ?? null;
  }
  const rows = await client.query<T>(
    `update ${table} set ${assignments.join(', ')} where ${filters.join(' and ')} returning *`,
    params,
  );
  return rows[0] ?? null;
}

/** A page of rows with the total, from a count query and a rows query sharing filters. */
export async function selectPage<T>(
  client: SqlClient,
  from: string,
  where: string,
  params: unknown[],
  orderBy: string,
  page: { limit: number; offset: number },
): Promise<{ items: T[]; total: number }> {
  const n = params.length;
  const rows = await client.query<T & { _total: number }>(
    `select *, count(*) over () as _total from ${from} where ${where} order by ${orderBy} limit $${n + 1} offset $${n + 2}`,
    [...params, page.limit, page.offset],
  );
  if (rows.length === 0 && page.offset > 0) {
    const [count] = await client.query<{ total: number }>(
      `select count(*) as total from ${from} where ${where}`,
      params,
    );
    return { items: [], total: Number(count?.total ?? 0) };
  }
  const total = rows.length > 0 ? Number(rows[0]?._total) : 0;
  return {
    items: rows.map(({ _total, ...row }) => {
      void _total;
      return row as unknown as T;
    }),
    total,
  };
}

/**
 * A page and its total from one statement (one snapshot, one round trip) whose rows are
 * `_total` and the row's columns: a one-row count left-joined to the page, so an empty page
 * still says the total (its one row has a null `id`). The page's order is the statement's.
 */
export async function pageWithTotal<T extends { id: string }>(
  client: SqlClient,
  text: string,
  params: unknown[],
): Promise<{ items: T[]; total: number }> {
  const rows = await client.query<Omit<T, 'id'> & { id: string | null; _total: number }>(text, params);
  const total = Number(rows[0]?._total ?? 0);
  const items: T[] = [];
  for (const { _total, ...row } of rows) {
    void _total;
    if (row.id !== null) items.push(row as unknown as T);
  }
  return { items, total };
}
