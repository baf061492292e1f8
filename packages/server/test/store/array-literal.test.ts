/**
 * `arrayLiteral` writes exactly what `pg` sends for the same JS array (the lead store's
 * contract tests then read such columns back from PostgreSQL, quotes and all).
 */
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { arrayLiteral } from '../../src/store/sql/array-literal.ts';

const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => string;
};

describe('arrayLiteral', () => {
  it('writes what pg writes for arrays of strings, numbers and nulls', () => {
    const element = fc.oneof(
      fc.string(),
      fc.constantFrom('"', '\\', 'a"b\\c', '{}', ',', 'NULL', ' x ', 'é✓', ''),
      fc.integer(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.array(element, { maxLength: 20 }), (values) => {
        expect(arrayLiteral(values)).toBe(prepareValue(values));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes a column of one repeated value or of nulls as pg does', () => {
    for (const value of ['same', 'q"uote', 42, null]) {
      const values = Array.from({ length: 5 }, () => value);
      expect(arrayLiteral(values)).toBe(prepareValue(values));
    }
    expect(arrayLiteral([])).toBe(prepareValue([]));
  });
});
