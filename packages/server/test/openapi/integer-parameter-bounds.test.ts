/**
 * Every integer query or header parameter of the document declares a `minimum` and a
 * `maximum` within 2^53: validation.ts turns an integer past 2^53 into that number only when
 * a bound refuses it ("must be <= ..."); without one it would stay text and be refused as
 * "must be integer", which says the wrong thing (found by a review of that change).
 */
import { expect, it } from 'vitest';
import { operationTable } from '../../src/openapi/document.ts';

it('gives every integer parameter bounds a number can hold exactly', () => {
  const unbounded: string[] = [];
  for (const operation of operationTable) {
    for (const parameter of operation.parameters) {
      const types = ([] as unknown[]).concat(parameter.schema.type ?? []);
      if (!types.includes('integer')) continue;
      const { minimum, maximum } = parameter.schema as { minimum?: number; maximum?: number };
      if (!Number.isSafeInteger(minimum) || !Number.isSafeInteger(maximum)) {
        unbounded.push(`${operation.operationId} ${parameter.in}.${parameter.name}`);
      }
    }
  }
  expect(unbounded).toEqual([]);
});
