/** `date_filter`, `variation` and the timestamp forms of `since`. */
import { describe, expect, it } from 'vitest';
import { parseDateFilter, parseTimestamp, parseVariation } from '../../src/domain/date-filter.ts';
import { ApiError } from '../../src/http/api-error.ts';

const now = new Date('2026-11-08T18:00:00.000Z');

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseDateFilter', () => {
  it.each([
    [undefined, null],
    [null, null],
    ['', null],
    ['1d', '2026-11-07T18:00:00.000Z'],
    ['30d', '2026-10-09T18:00:00.000Z'],
    ['090d', '2026-08-10T18:00:00.000Z'],
    ['3650d', '2016-11-10T18:00:00.000Z'],
    ['2026-10-01', '2026-10-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-10-01T00:00:00+00:00', '2026-10-01T00:00:00.000Z'],
    ['2026-10-01T00:00:00Z', '2026-10-01T00:00:00.000Z'],
    ['2026-10-01t00:00:00z', '2026-10-01T00:00:00.000Z'],
    ['2026-10-01T02:30:00+02:30', '2026-10-01T00:00:00.000Z'],
    ['2026-09-30T22:00:00-02:00', '2026-10-01T00:00:00.000Z'],
    ['2026-10-01T09:15Z', '2026-10-01T09:15:00.000Z'],
    ['2026-10-01T09:15:30.1234Z', '2026-10-01T09:15:30.123Z'],
  ])('%j starts the window at %j', (value, expected) => {
    expect(parseDateFilter(value, now)).toBe(expected);
  });

  it.each([
    ['0d', 'out of range'],
    ['3651d', 'out of range'],
    ['last month', 'neither a number of days'],
    ['30 days', 'neither'],
    ['-7d', 'neither'],
    ['7D', 'neither'],
    ['7', 'neither'],
    ['d', 'neither'],
    [' 7d', 'neither'],
    ['2026-13-01', 'neither'],
    ['2026-02-29', 'neither'],
    ['2026-04-31', 'neither'],
    ['2026-10-01T24:00:00Z', 'neither'],
    ['2026-10-01T10:60:00Z', 'neither'],
    ['2026-10-01T10:00:60Z', 'neither'],
    ['2026-10-01T10:00:00', 'neither'],
    ['2026-10-01T10:00:00+0200', 'neither'],
    ['2026-10-01T10:00:00+24:00', 'neither'],
    ['2026-10-01 10:00:00Z', 'neither'],
    ['yesterday', 'neither'],
    ['null', 'neither'],
  ])('%j answers 400 INVALID_DATE_FILTER (%s)', (value, words) => {
    const error = errorOf(() => parseDateFilter(value, now));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_DATE_FILTER');
    expect(error.message).toContain(`'${value}'`);
    expect(error.message).toContain(words);
  });
});

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T00:00:00+00:00', '2026-11-01T00:00:00.000Z'],
    ['0099-01-01', '0099-01-01T00:00:00.000Z'],
    ['7d', null],
    ['2026-11-01T00:00', null],
    ['', null],
  ])('%j is %j', (value, expected) => {
    expect(parseTimestamp(value)).toBe(expected);
  });
});

describe('parseVariation', () => {
  it.each([
    [undefined, 'all'],
    [null, 'all'],
    ['a', 'a'],
    ['b', 'b'],
    ['unassigned', 'unassigned'],
    ['all', 'all'],
  ])('%j is %j', (value, expected) => {
    expect(parseVariation(value)).toBe(expected);
  });

  it.each(['c', 'A', 'both', '', ' a', 'ALL'])('%j answers 400 INVALID_VARIATION', (value) => {
    const error = errorOf(() => parseVariation(value));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_VARIATION');
    expect(error.message).toBe(`variation '${value}' is not one of a, b, unassigned, all.`);
  });
});
