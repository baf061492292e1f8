/**
 * The failures an operation documents, read from the OpenAPI document: its error statuses,
 * and the `error` codes each lists. `mock.scenarios.fail` (and the control route) answer only
 * those, so that a test never rehearses an answer the service cannot give; TypeScript callers
 * get the same check from the types (api-types.ts).
 */
import { type OperationInfo, openApiDocument } from '@ocs/server';

/** JavaScript callers get the check the types give TypeScript callers: a documented status, and a code of it. */
export function assertDocumented(operation: OperationInfo, status: number, code: string): void {
  const item = (openApiDocument.paths as Record<string, Record<string, { responses?: object }>>)[operation.path];
  const responses = (item?.[operation.method.toLowerCase()]?.responses ?? {}) as Record<string, unknown>;
  if (!(String(status) in responses) || status < 400) {
    throw new TypeError(
      `@ocs/mock: ${operation.operationId} does not document the error status ${status}; it documents ${Object.keys(
        responses,
      )
        .filter((s) => Number(s) >= 400)
        .join(', ')}.`,
    );
  }
  const codes = documentedCodes(responses[String(status)]);
  if (codes.length > 0 && !codes.includes(code)) {
    throw new TypeError(
      `@ocs/mock: ${operation.operationId} does not answer ${status} with ${code}; at ${status} it documents ${codes.join(', ')}.`,
    );
  }
}

/** The `error` codes a response of the document lists (the enum of its error body), following `$ref`s. */
function documentedCodes(response: unknown): string[] {
  const codes = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 12 || typeof node !== 'object' || node === null) return;
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string') return visit(resolveRef(object.$ref), depth + 1);
    const error = (object.properties as Record<string, { enum?: unknown[] }> | undefined)?.error;
    for (const value of error?.enum ?? []) if (typeof value === 'string') codes.add(value);
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = object[key];
      if (Array.isArray(list)) for (const item of list) visit(item, depth + 1);
    }
    const content = object.content as Record<string, { schema?: unknown }> | undefined;
    if (content?.['application/json']) visit(content['application/json'].schema, depth + 1);
    if (object.schema) visit(object.schema, depth + 1);
  };
  visit(response, 0);
  return [...codes];
}

function resolveRef(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = openApiDocument;
  for (const part of ref.slice(2).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}
