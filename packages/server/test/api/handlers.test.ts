/** Every operation of the document has a handler: the reference server implements the whole API. */
import { expect, it } from 'vitest';
import { operationTable } from '../../src/openapi/document.ts';
import { handlers } from '../../src/routes/index.ts';

it('has a handler for each of the 50 operations', () => {
  const missing = operationTable.filter((op) => !handlers[op.operationId]).map((op) => op.operationId);
  expect(missing).toEqual([]);
  expect(operationTable).toHaveLength(50);
});
