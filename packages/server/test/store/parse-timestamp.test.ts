/**
 * `parseTimestamp` (store/sql/client.ts) turns PostgreSQL's text of a `timestamptz` in a UTC
 * session into the records' ISO form by rearranging it: the same string `Date` gives for
 * every time PostgreSQL can print, fractions of a second cut to milliseconds as `Date` cuts
 * them, and other forms still through `Date`.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { parseTimestamp } from '../../src/store/sql/client.ts';

/** PostgreSQL's text of a UTC time: microseconds with trailing zeros dropped, none when whole. */
function postgresText(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

/** What `Date` makes of it: the form before the rearranging. */
function throughDate(text: string): string {
  return new Date(`${text.slice(0, 10)}T${text.slice(11, -3)}+00:00`).toISOString();
}

it('gives what Date gives for any time PostgreSQL prints in a UTC session', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
      fc.integer({ min: 0, max: 999 }),
      (ms, micros) => {
        const text = postgresText(ms, micros);
        expect(parseTimestamp(text)).toBe(throughDate(text));
      },
    ),
    { numRuns: 5000 },
  );
  expect(parseTimestamp('2026-11-03 16:04:12+00')).toBe('2026-11-03T16:04:12.000Z');
  expect(parseTimestamp('2026-11-03 16:04:12.5+00')).toBe('2026-11-03T16:04:12.500Z');
  expect(parseTimestamp('2026-11-03 16:04:12.999999+00')).toBe('2026-11-03T16:04:12.999Z');
});

it('reads other offsets through Date', () => {
  expect(parseTimestamp('2026-11-03 18:04:12.345+02')).toBe('2026-11-03T16:04:12.345Z');
  expect(parseTimestamp('2026-11-03 11:34:12-04:30')).toBe('2026-11-03T16:04:12.000Z');
});
