/**
 * Insert and update statements built from records, so that each store method states only
 * its table, its key and which columns hold JSON. Column names come from our own record
 * types, never from callers' input.
 */
import type { SqlClient } from './client.ts';
import { planEachRun } from './statement-names.ts';

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

/** What a paged list reads: its table, its condition and parameters, and its order. */
export interface ListQuery {
  from: string;
  /** A condition on `from`'s columns, whose placeholders are `$1`..`$n` of `params`. */
  where: string;
  params: unknown[];
  /** The answer's order; it ends with a unique column, so that pages never share or skip a row. */
  orderBy: string;
  /**
   * A row's text in UTF-8 bytes, over `from`'s columns, for pages bounded by size
   * (`maxTextBytes`): `octet_length` of the text columns, which PostgreSQL reads from each
   * value's header, never decompressing or fetching the value (TOAST).
   */
  textBytes?: string;
}

/**
 * The statement of a page of `query` (decision 0006, "Every list costs with its page"): the
 * shape of `pageWithTotal`, a one-row count left-joined to the page cut by `limit` and
 * `offset` (the last two parameters), planned at every run. The count reads the matching
 * rows' index entries once; the page walks an index in the answer's order and stops after
 * `offset + limit` rows. (A window count, `count(*) over ()`, read and held every matching
 * row, full width, before the page was cut.)
 *
 * `limit` and `offset` are one-time subqueries, so that the planner does not see their values
 * and plans the page for a fraction of the rows, as a generic plan does. Seen, they were
 * weighed against the row estimate, which without statistics is a few hundred rows: a page
 * past it (offset 50,000 of 100,000) cost the same as the whole list either way, and was
 * planned as a bitmap scan and a sort of every matching row (on disk).
 */
export function pageStatement({ from, where, orderBy, params }: ListQuery): string {
  const n = params.length;
  return `${planEachRun}select c.total as _total, p.*
  from (select count(*) as total from ${from} where ${where}) c
  left join lateral (
    select * from ${from} where ${where}
     order by ${orderBy} limit (select $${n + 1}::bigint) offset (select $${n + 2}::bigint)) p on true`;
}

/**
 * `pageStatement` for a page bounded by size too (decision 0006, "Sandbox pages bounded by
 * size"; the rule is `takeWithinBytes`'s): the same walk of at most `limit` rows, then a running
 * sum of `query.textBytes` over them in the page's order, and only the rows whose sum stays
 * within the budget (the last parameter) are answered, the first row always. The sum reads the
 * texts' headers only, and the rows left out are never sent, so their texts are never read: a
 * page costs the rows it walks (as `pageStatement`'s) and the texts it answers. The rows keep
 * two more columns, `_text_bytes_through` and `_page_row`, which `listPage` takes off.
 */
export function sizedPageStatement(query: ListQuery & { textBytes: string }): string {
  const { from, where, orderBy, params, textBytes } = query;
  const n = params.length;
  return `${planEachRun}select c.total as _total, p.*
  from (select count(*) as total from ${from} where ${where}) c
  left join lateral (
    select * from (
      select r.*, sum(${textBytes}) over page_order as _text_bytes_through, row_number() over page_order as _page_row
        from (select * from ${from} where ${where}
               order by ${orderBy} limit (select $${n + 1}::bigint) offset (select $${n + 2}::bigint)) r
      window page_order as (order by ${orderBy} rows unbounded preceding)) s
     where s._page_row = 1 or s._text_bytes_through <= (select $${n + 3}::bigint)
     order by ${orderBy}) p on true`;
}

/**
 * A page of `query` and its total, from one statement (`pageStatement`), in its order; with
 * `maxTextBytes`, bounded by size too (`sizedPageStatement`, which needs `query.textBytes`).
 */
export async function listPage<T extends { id: string }>(
  client: SqlClient,
  query: ListQuery,
  page: { limit: number; offset: number; maxTextBytes?: number },
): Promise<{ items: T[]; total: number }> {
  const params = [...query.params, page.limit, page.offset];
  if (page.maxTextBytes === undefined) return pageWithTotal<T>(client, pageStatement(query), params);
  const { textBytes } = query;
  if (textBytes === undefined) throw new Error(`a page of ${query.from} bounded by size needs its textBytes`);
  const { items, total } = await pageWithTotal<T & { _text_bytes_through?: unknown; _page_row?: unknown }>(
    client,
    sizedPageStatement({ ...query, textBytes }),
    [...params, page.maxTextBytes],
  );
  for (const item of items) {
    delete item._text_bytes_through;
    delete item._page_row;
  }
  return { items, total };
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
