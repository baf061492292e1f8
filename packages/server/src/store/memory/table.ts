/**
 * A table of the memory store: a map of records with a journal, so that a transaction can
 * undo its writes. Records are copied in and out, so callers never share state with it.
 * Every change of its rows moves the store's data version on (see `DataVersion`).
 */

/**
 * A counter that every change of a table's rows moves on: a write, a delete, an undo of
 * either by a rollback, `clear` and `restore`. It never goes back (a restore moves it on
 * too), so a value read twice with nothing changed in between is the same, and anything
 * made from the data at one value is still true while the counter has that value (the
 * mock's cached list answers, `http/middleware/answer-cache.ts`). Its listeners hear every
 * change as it happens, so that a copy made from the data (a kept page of leads) is dropped
 * by the write that changes it: an erasure leaves no copy of what it erased.
 */
export class DataVersion {
  private current = 0;
  private readonly listeners: Array<() => void> = [];

  get value(): number {
    return this.current;
  }

  bump(): void {
    this.current++;
    for (const listener of this.listeners) listener();
  }

  /** `listener` runs after every change, synchronously, inside the write that made it. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}
export class Journal {
  private undo: Array<() => void> | null = null;

  begin(): void {
    this.undo = [];
  }

  record(step: () => void): void {
    this.undo?.push(step);
  }

  commit(): void {
    this.undo = null;
  }

  /** Where the running transaction stands: `rollbackTo` it undoes what came after (a nested transaction). */
  mark(): number {
    return this.undo?.length ?? 0;
  }

  /** Undoes the writes made since `mark`, keeping the earlier ones (SQL's ROLLBACK TO SAVEPOINT). */
  rollbackTo(mark: number): void {
    const steps = this.undo;
    if (!steps) return;
    for (let i = steps.length - 1; i >= mark; i--) steps[i]?.();
    steps.length = mark;
  }

  rollback(): void {
    const steps = this.undo ?? [];
    this.undo = null;
    for (let i = steps.length - 1; i >= 0; i--) steps[i]?.();
  }
}

/**
 * A deep copy of a record. Records hold JSON data only (strings, numbers, booleans, null,
 * arrays and plain objects: times are ISO strings), so a plain recursive copy does what
 * `structuredClone` would, several times faster: every read and write of the memory store
 * copies, so that no caller can change a stored row by mutating what it was given.
 */
export function copyRecord<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyRecord) as T;
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  // for...in over a plain object allocates nothing per field (Object.entries would).
  for (const key in source) {
    // A custom field may be named `__proto__` (JSON.parse makes it an own key): assigned with
    // `=`, it would become the copy's prototype, and its fields would turn up as the record's
    // own in the next copy. Defined as an own property, as JSON.parse and jsonb keep it.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: copyRecord(source[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = copyRecord(source[key]);
  }
  return copy as T;
}

/**
 * A table's secondary indexes, by name: each gives a row's value of one column (null: not
 * indexed). The rows of one value are found without scanning the table, as an SQL index
 * would: the engine's step-run check, one lead's events and one campaign's enrolments were
 * each a scan of the whole table, which made the mock's engine and sandbox quadratic.
 */
export type IndexedColumns<T> = Record<string, (row: T) => string | null>;

/** The rows and their indexes, shared by a table and its transaction views. */
class TableData<T> {
  readonly rows = new Map<string, T>();
  private readonly indexes: Array<{ name: string; column: (row: T) => string | null; keys: Map<string, Set<string>> }>;

  constructor(columns: IndexedColumns<T>) {
    this.indexes = Object.entries(columns).map(([name, column]) => ({ name, column, keys: new Map() }));
  }

  /** Stores `row` at `key`; a row already there keeps its place in the insertion order. */
  put(key: string, row: T): void {
    const previous = this.rows.get(key);
    this.rows.set(key, row);
    for (const index of this.indexes) {
      const before = previous === undefined ? null : index.column(previous);
      const after = index.column(row);
      if (before === after && previous !== undefined) continue;
      if (before !== null) this.unindex(index.keys, before, key);
      if (after === null) continue;
      const keys = index.keys.get(after);
      if (keys) keys.add(key);
      else index.keys.set(after, new Set([key]));
    }
  }

  remove(key: string): void {
    const row = this.rows.get(key);
    if (row === undefined) return;
    this.rows.delete(key);
    for (const index of this.indexes) {
      const value = index.column(row);
      if (value !== null) this.unindex(index.keys, value, key);
    }
  }

  private unindex(keys: Map<string, Set<string>>, value: string, key: string): void {
    const set = keys.get(value);
    set?.delete(key);
    if (set?.size === 0) keys.delete(value);
  }

  clear(): void {
    this.rows.clear();
    for (const index of this.indexes) index.keys.clear();
  }

  /** The stored rows whose `index` value is `value` (in the order they took it). */
  indexed(index: string, value: string): T[] {
    const found = this.indexes.find((candidate) => candidate.name === index);
    if (!found) throw new Error(`no index ${index}`);
    const keys = found.keys.get(value);
    if (!keys) return [];
    const rows: T[] = [];
    for (const key of keys) rows.push(this.rows.get(key) as T);
    return rows;
  }
}

export class Table<T> {
  private readonly data: TableData<T>;
  private readonly rows: Map<string, T>;

  constructor(
    private readonly journal: Journal | null,
    /** Shared by the tables of a store and their transaction views. */
    private readonly version: DataVersion = new DataVersion(),
    indexes: IndexedColumns<T> | TableData<T> = {},
  ) {
    this.data = indexes instanceof TableData ? indexes : new TableData(indexes);
    this.rows = this.data.rows;
  }

  /** The same rows, with writes recorded in `journal` (a transaction's view). */
  withJournal(journal: Journal): Table<T> {
    return new Table(journal, this.version, this.data);
  }

  /**
   * Rows whose indexed column `index` is `value` and that match `predicate`, copied: what
   * `where` gives, without visiting the other rows. Sort them where order matters (a row
   * whose indexed value changed comes after the others).
   */
  whereIndexed(index: string, value: string, predicate: (row: T) => boolean = () => true): T[] {
    const result: T[] = [];
    for (const row of this.data.indexed(index, value)) if (predicate(row)) result.push(copyRecord(row));
    return result;
  }

  get(key: string): T | undefined {
    const row = this.rows.get(key);
    return row === undefined ? undefined : copyRecord(row);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  /** Every row, copied; filter and sort these. */
  all(): T[] {
    return [...this.rows.values()].map((row) => copyRecord(row));
  }

  /** Rows matching `predicate`, without copying the ones that do not match. */
  where(predicate: (row: T) => boolean): T[] {
    const result: T[] = [];
    for (const row of this.rows.values()) if (predicate(row)) result.push(copyRecord(row));
    return result;
  }

  /**
   * Visits every stored row, in insertion order, WITHOUT copying it: `visit` must only read.
   * For scans of large tables (the delivery outbox) where copying each row would cost more
   * than the scan; take copies of the rows kept with `get`.
   */
  scan(visit: (row: Readonly<T>, key: string) => void): void {
    for (const [key, row] of this.rows) visit(row, key);
  }

  /**
   * One page of the rows matching `predicate`, in `order`, and how many match: filtering and
   * sorting read the stored rows, and only the page is copied (a list answer copied every
   * matching row before, which made list operations of the mock cost the whole table).
   */
  page(
    predicate: (row: Readonly<T>) => boolean,
    order: (a: Readonly<T>, b: Readonly<T>) => number,
    page: { limit: number; offset: number },
  ): { items: T[]; total: number } {
    const matching: T[] = [];
    for (const row of this.rows.values()) if (predicate(row)) matching.push(row);
    matching.sort(order);
    const items = matching.slice(page.offset, page.offset + page.limit).map((row) => copyRecord(row));
    return { items, total: matching.length };
  }

  set(key: string, row: T): void {
    const previous = this.rows.get(key);
    this.journal?.record(() => {
      if (previous === undefined) this.data.remove(key);
      else this.data.put(key, previous);
      this.version.bump();
    });
    this.data.put(key, copyRecord(row));
    this.version.bump();
  }

  delete(key: string): void {
    const previous = this.rows.get(key);
    if (previous === undefined) return;
    this.journal?.record(() => {
      this.data.put(key, previous);
      this.version.bump();
    });
    this.data.remove(key);
    this.version.bump();
  }

  clear(): void {
    this.data.clear();
    this.version.bump();
  }

  /**
   * The rows as they are now, for `restore` (the mock's reset). Rows are copied in by `set`
   * and out by every read, never changed in place, so the snapshot can share them: taking
   * and restoring one costs a map copy, not a deep clone.
   */
  snapshot(): ReadonlyMap<string, T> {
    return new Map(this.rows);
  }

  /** Puts back the rows of a snapshot, in the same map (transaction views share it). */
  restore(rows: ReadonlyMap<string, T>): void {
    this.data.clear();
    for (const [key, row] of rows) this.data.put(key, row);
    this.version.bump();
  }

  get size(): number {
    return this.rows.size;
  }
}

/** Applies `patch` to the row at `key`, returning the updated copy, or null when absent. */
export function patchRow<T extends object>(table: Table<T>, key: string, patch: Partial<NoInfer<T>>): T | null {
  const row = table.get(key);
  if (row === undefined) return null;
  const updated = { ...row, ...stripUndefined(patch) };
  table.set(key, updated);
  return copyRecord(updated);
}

export function stripUndefined<T extends object>(patch: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** One page of `rows` (already sorted) and the total. */
export function paginate<T>(rows: T[], page: { limit: number; offset: number }) {
  return { items: rows.slice(page.offset, page.offset + page.limit), total: rows.length };
}

/** Code-point order, as PostgreSQL's `collate "C"` (never locale-dependent). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sort helpers that break ties by `id`, as the API promises. */
export const newestFirst = <T extends { created_at: string; id: string }>(a: T, b: T) =>
  compareText(b.created_at, a.created_at) || compareText(b.id, a.id);
export const oldestFirst = <T extends { created_at: string; id: string }>(a: T, b: T) =>
  compareText(a.created_at, b.created_at) || compareText(a.id, b.id);
