/**
 * The request validators of @ocs/server, precompiled with Ajv's standalone code: every schema
 * the server validates with (validator-schemas.ts), compiled here from the document being
 * generated, so that neither the server nor the mock compiles a schema at run time. The
 * document is checked against JSON Schema's meta-schema on the way.
 *
 * Ajv's standalone code `require`s its run-time helpers; the module is ESM and also runs in
 * the browser (the mock), so each helper is taken from validator-runtime.ts instead.
 */
import { _, Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { narrowedFormatNames, ocsFormats } from '../../packages/server/src/openapi/formats.ts';
import { buildOperationTable, type OpenApiDocument } from '../../packages/server/src/openapi/operation-table.ts';
import { ajvOptions, documentId, validatorSchemas } from '../../packages/server/src/openapi/validator-schemas.ts';

export const validatorsModulePath = 'packages/server/src/generated/validators.ts';

// CommonJS modules whose default export does not survive ESM interop typing.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const generateStandalone = standaloneCode as unknown as (ajv: Ajv2020, refs: Record<string, string>) => string;

/** The helpers Ajv's code may `require`, and their names in validator-runtime.ts. */
const runtimeHelpers: Record<string, string> = {
  'require("ajv/dist/runtime/ucs2length").default': 'ucs2length',
  'require("ocs/formats").ocsFormats': 'ocsFormats',
};

/**
 * ajv-formats' formats with the service's narrowed ones (formats.ts) in their place. With
 * `standalone`, the code names every format function through `ocsFormats` (ajv-formats keeps
 * a `code.formats` already set), so the narrowed checks are the ones that run.
 */
export function addServiceFormats(ajv: Ajv2020): void {
  addFormats(ajv);
  for (const name of narrowedFormatNames) ajv.addFormat(name, ocsFormats[name]);
}

export function generateValidatorsModule(document: Record<string, unknown>): string {
  const ajv = new Ajv2020({
    ...ajvOptions,
    code: { source: true, esm: true, lines: true, formats: _`require("ocs/formats").ocsFormats` },
  });
  addServiceFormats(ajv);
  ajv.addSchema({ ...document, $id: documentId });
  const schemas = validatorSchemas(buildOperationTable(document as OpenApiDocument));
  const exports: Record<string, string> = {};
  const keys = [...schemas.keys()];
  keys.forEach((key, index) => {
    const id = `urn:ocs:validator:${index}`;
    ajv.addSchema(schemas.get(key) as object, id);
    exports[`v${index}`] = id;
  });
  let code = generateStandalone(ajv, exports).replace(/^"use strict";\n?/, '');
  const used = new Set<string>();
  code = code.replace(/require\("[^"]+"\)\.\w+/g, (call) => {
    const name = runtimeHelpers[call];
    if (!name)
      throw new Error(`Ajv's standalone code needs ${call}: add it to validator-runtime.ts and runtimeHelpers.`);
    used.add(name);
    return name;
  });
  code = appendErrorsInPlace(code);
  // Each validator is a plain constant; only the table below is exported.
  code = code.replace(/\bexport const (v\d+) = /g, 'const $1 = ');
  const table = keys.map((key, index) => `  ${JSON.stringify(key)}: v${index},`).join('\n');
  return [
    '// @ts-nocheck -- Ajv standalone code, checked by the tests that compare it with a fresh compilation.',
    `import { ${[...used].sort().join(', ')}, type PrecompiledValidator } from '../openapi/validator-runtime.ts';`,
    '',
    code.trim(),
    '',
    '/** The validator of each key of validator-schemas.ts. */',
    `export const validators: Readonly<Record<string, PrecompiledValidator>> = {\n${table}\n};`,
    '',
  ].join('\n');
}

/**
 * Ajv gathers the errors of a schema it calls as a function (a `$ref`, an array's items)
 * with `vErrors = vErrors.concat(callee.errors)`, a copy of every error so far at each
 * failing call: an array of n wrong items (a sequence's steps) took time in n², minutes
 * for a body of 1 MB (decision 0005). The same errors appended in place, one loop; Ajv's own
 * code already appends to the array it takes from the first failing callee.
 */
export function appendErrorsInPlace(code: string): string {
  const rewritten = code.replace(
    /vErrors = vErrors === null \? ([\w.]+\.errors) : vErrors\.concat\(\1\);/g,
    (_, errors: string) =>
      `if (vErrors === null) vErrors = ${errors}; else for (const e of ${errors}) vErrors.push(e);`,
  );
  if (rewritten.includes('vErrors.concat('))
    throw new Error("Ajv's standalone code gathers errors with concat in a form appendErrorsInPlace does not know.");
  return rewritten;
}
