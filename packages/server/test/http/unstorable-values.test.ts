/**
 * `unstorableValues`, the pass before the schemas: it says in a flag of its own, set where
 * each is found, whether the schemas may read the body at all (a number that overflowed to
 * an infinity, a body nested too deep); the validator no longer reads that from issue text.
 */
import { expect, it } from 'vitest';
import { operationTable } from '../../src/openapi/document.ts';
import { maxBodyDepth, RequestValidator, unstorableValues } from '../../src/http/validation.ts';

const createDeal = operationTable.find((operation) => operation.operationId === 'createDeal');
if (!createDeal) throw new Error('createDeal is not in the document');
const request = (body: unknown) => ({ url: new URL('http://localhost/v1/crm/deals'), headers: new Headers(), body });

it('flags a number that overflowed, and only it is reported', () => {
  const found = unstorableValues(createDeal, request(JSON.parse('{"name":"Big","value":1e400}')));
  expect(found.schemasMustNotRead).toBe(true);
  expect(found.issues).toEqual([
    {
      field: 'body.value',
      message: 'is out of range: a number must fit a 64-bit float (about ±1.8e308)',
      type: 'maximum',
    },
  ]);
});

it('flags a body nested too deep', () => {
  let deep: unknown = 1;
  for (let level = 0; level <= maxBodyDepth; level++) deep = [deep];
  expect(unstorableValues(createDeal, request({ name: 'x', metadata: { deep } })).schemasMustNotRead).toBe(true);
});

it('leaves an unstorable string to be reported with the schemas’ issues', () => {
  const found = unstorableValues(createDeal, request({ name: 'a\u0000b', value: -1 }));
  expect(found.schemasMustNotRead).toBe(false);
  expect(found.issues).toMatchObject([{ field: 'body.name', type: 'unsupported_character' }]);
  // The validator adds the schemas' own issue (value below its minimum) to it.
  let thrown: unknown;
  try {
    new RequestValidator().validate(createDeal, { path: {}, ...request({ name: 'a\u0000b', value: -1 }) });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toMatchObject({
    details: {
      errors: [
        { field: 'body.name', type: 'unsupported_character' },
        { field: 'body.value', type: 'minimum' },
      ],
    },
  });
});

it('the validator answers an overflow with that one issue, no schema issue beside it', () => {
  expect(() =>
    new RequestValidator().validate(createDeal, {
      path: {},
      ...request(JSON.parse('{"name":"Small","value":-1e400}')),
    }),
  ).toThrow(expect.objectContaining({ details: { errors: [expect.objectContaining({ type: 'minimum' })] } }));
});
