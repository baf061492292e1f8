/**
 * The precompiled request validators (src/generated/validators.ts) are what a fresh Ajv
 * compilation of the document gives: the checked-in module equals a fresh generation from
 * the bundled document (else `npm run generate` was not run after a change), and on values
 * from every schema, valid ones and broken ones, each precompiled validator answers as a
 * validator compiled now with the same options: the same verdict and the same errors, down
 * to the schema paths and verbose schemas that validation.ts reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addServiceFormats,
  appendErrorsInPlace,
  generateValidatorsModule,
  validatorsModulePath,
} from '../../../../scripts/generate/validators.ts';
import { validators } from '../../src/generated/validators.ts';
import { RequestValidator } from '../../src/http/validation.ts';
import { openApiDocument, operationTable } from '../../src/openapi/document.ts';
import {
  ajvOptions,
  bodyKey,
  documentId,
  parameterKey,
  validatorSchemas,
} from '../../src/openapi/validator-schemas.ts';
import { schemaArbitrary } from '../fuzz/schema-arbitrary.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');

it('the checked-in validators are a fresh generation from the bundled document', () => {
  const checkedIn = readFileSync(join(repoRoot, validatorsModulePath), 'utf8');
  const fresh = generateValidatorsModule(openApiDocument);
  // A boolean, not a diff of two 350 KB strings.
  expect(checkedIn.endsWith(fresh), `${validatorsModulePath} is stale: run \`npm run generate\``).toBe(true);
});

it('has a validator for every schema the server validates with, and no other', () => {
  expect(Object.keys(validators).sort()).toEqual([...validatorSchemas(operationTable).keys()].sort());
});

it('refuses to start, naming the command, when a key of the document has no validator', () => {
  const table = validators as Record<string, (typeof validators)[string]>;
  const [key] = Object.keys(table);
  if (!key) throw new Error('no validators');
  const kept = table[key];
  Reflect.deleteProperty(table, key);
  try {
    expect(() => new RequestValidator()).toThrow(`none for ${key}): run \`npm run generate\``);
  } finally {
    if (kept) table[key] = kept;
  }
  expect(() => new RequestValidator()).not.toThrow();
});

describe('each precompiled validator answers as a fresh compilation', () => {
  const ajv = new Ajv2020({ ...ajvOptions });
  addServiceFormats(ajv);
  ajv.addSchema({ ...openApiDocument, $id: documentId });
  const schemas = validatorSchemas(operationTable);

  // The document's own schema of each key (local `$ref`s), for generating values.
  const sources = new Map<string, Record<string, unknown>>();
  for (const operation of operationTable) {
    for (const parameter of operation.parameters) sources.set(parameterKey(operation, parameter), parameter.schema);
    if (operation.hasBody) sources.set(bodyKey(operation), { $ref: bodyKey(operation) });
    for (const form of operation.bodyForms) sources.set(form.pointer, { $ref: form.pointer });
  }

  it.each([...schemas.keys()])('%s', (key) => {
    const fresh = ajv.compile(schemas.get(key) as object);
    const precompiled = validators[key];
    if (!precompiled) throw new Error(`no precompiled validator for ${key}`);
    const valid = schemaArbitrary(openApiDocument as never, sources.get(key) as never, { maxDepth: 3 });
    const values = fc.oneof(valid, valid.chain(broken), fc.jsonValue({ maxDepth: 3 }));
    let refused = 0;
    fc.assert(
      fc.property(values, (value) => {
        const expected = fresh(value);
        const got = precompiled(value);
        if (!expected) refused++;
        expect(got).toBe(expected);
        expect(precompiled.errors ?? null).toEqual(fresh.errors ?? null);
      }),
      { numRuns: 60, seed: 11 },
    );
    // Not only valid values were compared (most broken values are refused).
    expect(refused).toBeGreaterThan(0);
  });
});

/** A value with one part replaced by any JSON, removed, or added. */
function broken(value: unknown): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 2 });
  if (Array.isArray(value)) return anything.map((extra) => [...value, extra]);
  if (value === null || typeof value !== 'object') return anything;
  const keys = Object.keys(value);
  const name = keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), fc.string()) : fc.string();
  return fc.tuple(name, fc.option(anything)).map(([key, replacement]) => {
    const others = Object.entries(value).filter(([name]) => name !== key);
    return Object.fromEntries(replacement === null ? others : [...others, [key, replacement]]);
  });
}

describe('errors of a schema called as a function are appended in place (decision 0005)', () => {
  it('the module copies no error list: no concat, which made an array of n wrong items take time in n²', () => {
    const checkedIn = readFileSync(join(repoRoot, validatorsModulePath), 'utf8');
    expect(checkedIn).not.toContain('vErrors.concat(');
    expect(checkedIn).toContain('else for (const e of validate');
  });

  it("refuses Ajv's code that gathers errors with concat in a form it does not know", () => {
    expect(() => appendErrorsInPlace('vErrors = vErrors.concat(other);')).toThrow(/appendErrorsInPlace/);
    expect(
      appendErrorsInPlace('vErrors = vErrors === null ? validate7.errors : vErrors.concat(validate7.errors);'),
    ).toBe('if (vErrors === null) vErrors = validate7.errors; else for (const e of validate7.errors) vErrors.push(e);');
  });
});
