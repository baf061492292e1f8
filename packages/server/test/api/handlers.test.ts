/** Every operation of the document has a handler: the reference server implements the whole API. */
import { expect, it } from 'vitest';
import { operationTable } from '../../src/openapi/document.ts';
import { handlers } from '../../src/routes/index.ts';

it('has a handler for each of the 50 operations of the specification and the 6 sandbox operations', () => {
  const missing = operationTable.filter((op) => !handlers[op.operationId]).map((op) => op.operationId);
  expect(missing).toEqual([]);
  const sandbox = operationTable.filter((op) => op.path.startsWith('/sandbox/'));
  expect(operationTable.length - sandbox.length).toBe(50);
  expect(sandbox.map((op) => op.operationId).sort()).toEqual([
    'advanceSandboxClock',
    'getSandboxClock',
    'listSandboxDeliveries',
    'listSandboxMessages',
    'simulateEngagement',
    'simulateReply',
  ]);
});
