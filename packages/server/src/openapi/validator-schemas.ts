/**
 * The schemas a request is validated against, one per key: each operation's path, query and
 * header parameters, and its JSON body. `npm run generate` compiles exactly these into the
 * precompiled validators (src/generated/validators.ts), and the server looks them up by the
 * same keys, so the two cannot disagree on what a key means.
 */
import type { JsonSchema, OperationInfo, OperationParameter } from './operation-table.ts';

/** The `$id` the document is registered under; its local `$ref`s are rebased onto it. */
export const documentId = 'urn:ocs:openapi';

/**
 * Ajv's options, at generation and in the tests that compare the precompiled validators with
 * a fresh compilation. OpenAPI adds keywords of its own (`example`, `x-*`): strict mode would
 * refuse them. `verbose` puts each failing schema and value on its error: the union handling
 * of validation.ts reads them. ajv-formats adds the `format`s in full mode.
 */
export const ajvOptions = { strict: false, allErrors: true, validateFormats: true, verbose: true } as const;

/** Headers the service reads but never refuses (NOTES.md: a bad X-Request-ID is ignored). */
export const unvalidatedHeaders: ReadonlySet<string> = new Set(['x-request-id']);

export function parameterKey(operation: OperationInfo, parameter: OperationParameter): string {
  return `${String(operation.operationId)} ${parameter.in} ${parameter.name}`;
}

export function bodyKey(operation: OperationInfo): string {
  return `${operation.pointer}/requestBody/content/application~1json/schema`;
}

/** Every schema the server validates with, by key, in document order. */
export function validatorSchemas(table: readonly OperationInfo[]): Map<string, JsonSchema> {
  const schemas = new Map<string, JsonSchema>();
  for (const operation of table) {
    for (const parameter of operation.parameters) {
      if (parameter.in === 'header' && unvalidatedHeaders.has(parameter.name.toLowerCase())) continue;
      schemas.set(parameterKey(operation, parameter), rebase(parameter.schema) as JsonSchema);
    }
    if (operation.hasBody) schemas.set(bodyKey(operation), { $ref: `${documentId}${bodyKey(operation)}` });
    // Each form of a body with several (a component schema, keyed by its pointer).
    for (const form of operation.bodyForms) schemas.set(form.pointer, { $ref: `${documentId}${form.pointer}` });
  }
  return schemas;
}

/** Local `$ref`s (`#/components/...`) made absolute, pointing into the registered document. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (!node || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${documentId}${value}` : rebase(value);
  }
  return copy;
}
