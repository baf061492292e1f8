/**
 * The bundled OpenAPI document that @ocs/sdk ships, and the operation table derived from it.
 * The server reads routes, scopes, deprecations and validation schemas from here, so that
 * the document stays the one source of truth.
 */
import document from '@ocs/sdk/openapi.json' with { type: 'json' };
import { buildOperationTable, type OpenApiDocument, type OperationInfo } from './operation-table.ts';
import type { OperationId } from './types.ts';

export type { JsonSchema, OpenApiDocument, OperationInfo, OperationParameter } from './operation-table.ts';

export const openApiDocument = document as unknown as OpenApiDocument;

export const operationTable: readonly OperationInfo[] = buildOperationTable(openApiDocument);

export const operationsById: ReadonlyMap<OperationId, OperationInfo> = new Map(
  operationTable.map((op) => [op.operationId, op]),
);
