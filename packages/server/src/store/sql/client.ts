/**
 * The little the SQL store needs from a PostgreSQL connection, so that the same queries run
 * on embedded PGlite and on a PostgreSQL server through `pg`.
 */
export interface SqlClient {
  readonly kind: 'pglite' | 'postgres';
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Runs a script of several statements as one batch, without parameters (PGlite's `exec`,
   * `pg`'s simple query protocol): the migrations, whose function bodies may hold `;`.
   */
  exec(script: string): Promise<void>;
  /**
   * Runs `work` in one transaction on one connection. A nested call joins it behind a
   * savepoint (savepoint.ts): if it fails, its work alone is undone and the outer goes on.
   */
  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** `2026-11-03 16:04:12+00`, with up to six digits of a second after a `.`: a UTC session's form. */
const utcText = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.(\d{1,6}))?\+00$/;

/**
 * PostgreSQL's text form of `timestamptz` (`2026-11-03 16:04:12.345+00`) as the ISO form the
 * records use (`2026-11-03T16:04:12.345Z`). Sessions run in UTC, so the text is already the
 * UTC time: it is rearranged rather than parsed into a `Date` and printed again, which took
 * 2.5 us a value (a campaign's 30,000 events spent 75 ms on it). The fraction is cut to
 * milliseconds as `Date` cuts it. Any other form (another offset, `infinity`, a year past
 * 9999) goes through `Date`.
 */
export function parseTimestamp(value: string): string {
  const utc = utcText.exec(value);
  if (utc) return `${value.slice(0, 10)}T${value.slice(11, 19)}.${(utc[1] ?? '').slice(0, 3).padEnd(3, '0')}Z`;
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/.exec(value);
  if (!match) return new Date(value).toISOString();
  const [, date, time, hours, minutes = '00'] = match;
  return new Date(`${date}T${time}${hours}:${minutes}`).toISOString();
}

/** Type OIDs whose text form the store wants parsed differently from the drivers' defaults. */
export const typeParsers: Record<number, (value: string) => unknown> = {
  20: Number, // int8: counts and bigint columns stay well within 2^53
  1700: Number, // numeric: deal values
  1114: parseTimestamp, // timestamp
  1184: parseTimestamp, // timestamptz
};
