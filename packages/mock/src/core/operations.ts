/**
 * Which operation a request is for, from the server's operation table (read from the
 * OpenAPI document): scenarios and typed overrides are keyed by operationId.
 */
import { type OperationInfo, operationTable } from '@ocs/server';
import type { OperationId } from './api-types.ts';

export type MatchOperation = (method: string, apiPath: string) => OperationInfo | undefined;

/** A matcher over API paths relative to `/v1` (`/campaigns/3c9e...`). */
export function operationMatcher(): MatchOperation {
  // Fewer parameters first, as the application routes, so that
  // `/campaigns/sequence-templates` is not taken for `/campaigns/{campaign_id}`.
  const compiled = [...operationTable]
    .sort((a, b) => parameterCount(a.path) - parameterCount(b.path))
    .map((operation) => ({
      operation,
      pattern: new RegExp(`^${operation.path.replaceAll(/\{\w+\}/g, '[^/]+')}$`),
    }));
  return (method, apiPath) =>
    compiled.find((entry) => entry.operation.method === method && entry.pattern.test(apiPath))?.operation;
}

/** The operation with this method and path template, as the document declares it. */
export function operationAt(method: string, pathTemplate: string): OperationInfo {
  const found = operationTable.find((op) => op.method === method && op.path === pathTemplate);
  if (!found) throw new TypeError(`@ocs/mock: the document has no operation ${method} ${pathTemplate}.`);
  return found;
}

/** The operation with this operationId; a clear error for an unknown one (JavaScript callers). */
export function operationById(operationId: OperationId): OperationInfo {
  const found = operationTable.find((op) => op.operationId === operationId);
  if (!found) {
    throw new TypeError(
      `@ocs/mock: unknown operationId "${String(operationId)}". Use one of the document's operationIds.`,
    );
  }
  return found;
}

/** The path parameters of `template` (`/campaigns/{campaign_id}`) in an API path (`/campaigns/3c9e...`). */
export function pathParams(template: string, apiPath: string): Record<string, string> {
  const values = apiPath.split('/');
  const params: Record<string, string> = {};
  template.split('/').forEach((segment, index) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    const value = values[index];
    if (name && value !== undefined) params[name] = safeDecode(value);
  });
  return params;
}

/** A path segment decoded, or as it is when it is not valid percent-encoding. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function parameterCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
