/**
 * The instants the service stores and writes: 0001-01-01T00:00:00.000Z to
 * 9999-12-31T23:59:59.999Z. PostgreSQL has no year 0 (`0000-01-01` is out of range there, and
 * an earlier instant comes back as a BC date that JavaScript writes as year 0 or less), and
 * JavaScript writes a year past 9999 as `+010000`, a form no ISO 8601 date-time reader takes.
 * A time outside this range answers `400` wherever a request gives one, never reaching a store.
 */
const earliest = Date.parse('0001-01-01T00:00:00.000Z');
const latest = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether `millis` (from `Date.parse`, `getTime()`) is such an instant; NaN is not. */
export function isStorableInstant(millis: number): boolean {
  return millis >= earliest && millis <= latest;
}
