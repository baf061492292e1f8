/**
 * The erasure drops the request digest of refused `leadDataOperation` requests (their answers
 * name no lead): that operation must be the one keyed operation whose body holds a lead's data.
 */
import { expect, it } from 'vitest';
import { leadDataOperation } from '../../src/domain/request-fingerprint.ts';
import { operationTable } from '../../src/openapi/document.ts';

it("names createLead's route, and every keyed operation is it or createCampaign (whose body holds no lead)", () => {
  const keyed = operationTable.filter((operation) =>
    operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
  );
  expect(keyed.map((operation) => operation.operationId).sort()).toEqual(['createCampaign', 'createLead']);
  const createLead = keyed.find((operation) => operation.operationId === 'createLead');
  expect({ method: createLead?.method, route: createLead?.path }).toEqual(leadDataOperation);
});
