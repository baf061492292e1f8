/**
 * `groupedDigits` writes what `toLocaleString('en-US')` writes for every safe integer (the
 * form the error messages had), without loading ICU at start.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { groupedDigits } from '../../src/domain/grouped-digits.ts';

it('groups the digits of every safe integer as en-US does', () => {
  fc.assert(
    fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1_000_000, max: 1_000_000 })), (value) => {
      expect(groupedDigits(value)).toBe(value.toLocaleString('en-US'));
    }),
    { numRuns: 2_000 },
  );
});

it('writes the limits the messages name', () => {
  expect(groupedDigits(1_000_000)).toBe('1,000,000');
  expect(groupedDigits(999)).toBe('999');
  expect(groupedDigits(1000)).toBe('1,000');
  expect(groupedDigits(0)).toBe('0');
  expect(groupedDigits(-12_345)).toBe('-12,345');
});
