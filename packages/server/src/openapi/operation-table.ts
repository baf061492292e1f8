/**
 * The operation table of an OpenAPI document: one entry per operation, with its parameters
 * resolved. A pure function of the document, so that `npm run generate` derives the
 * precompiled validators from the document it is generating, with the same table the server
 * reads at run time.
 */
import type { OperationId } from './types.ts';
import { resolveRef } from './resolve-ref.ts';
import { type FieldPath, mayBeUuid, uuidFieldPaths } from './uuid-fields.ts';

export type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = { paths: Record<string, unknown>; components: Record<string, unknown> } & Record<
  string,
  unknown
>;

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  /** Its value is (or may be) a UUID, written in lower case once valid (uuid-fields.ts). */
  uuid: boolean;
}

export interface OperationInfo {
  operationId: OperationId;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path template relative to `/v1`, as in the document: `/campaigns/{campaign_id}`. */
  path: string;
  /** JSON pointer of the operation in the document. */
  pointer: string;
  scope: string | null;
  deprecated: boolean;
  /** For deprecated operations: the successor's path template (`/webhooks/examples`). */
  successorPath: string | null;
  parameters: OperationParameter[];
  hasBody: boolean;
  bodyRequired: boolean;
  /**
   * A JSON body with several forms (`anyOf`/`oneOf` of component schemas, such as
   * `POST /leads`: one lead or a batch): each form, resolved, with its pointer. Empty
   * otherwise. A body that fails is checked again against the form it is meant for, so
   * that its issues are that form's (validation.ts).
   */
  bodyForms: BodyForm[];
  /** Where the JSON body holds UUIDs (`campaign_id`, `leads[].campaign_id`), to write them in lower case. */
  uuidBodyFields: FieldPath[];
}

export interface BodyForm {
  /** `#/components/schemas/LeadBatchInput`. */
  pointer: string;
  schema: JsonSchema;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function buildOperationTable(document: OpenApiDocument): OperationInfo[] {
  const table: OperationInfo[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
    for (const method of methods) {
      const operation = item[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((operation.parameters as unknown[]) ?? [])]
        .map((parameter) => resolveRef<OperationParameter>(document, parameter))
        .map((p) => ({
          name: p.name,
          in: p.in,
          required: Boolean(p.required),
          schema: p.schema,
          uuid: mayBeUuid(document, p.schema),
        }));
      const body = operation.requestBody
        ? resolveRef<{ required?: boolean }>(document, operation.requestBody)
        : undefined;
      const successor = operation['x-successor'] as { path?: string } | undefined;
      table.push({
        operationId: operation.operationId as OperationId,
        method: method.toUpperCase() as OperationInfo['method'],
        path,
        pointer: `#/paths/${escape(path)}/${method}`,
        scope: (operation['x-required-scope'] as string | null | undefined) ?? null,
        deprecated: Boolean(operation.deprecated),
        successorPath: successor?.path ?? null,
        parameters,
        hasBody: Boolean(body),
        bodyRequired: Boolean(body?.required),
        bodyForms: bodyFormsOf(document, body),
        uuidBodyFields: uuidFieldPaths(document, jsonBodySchema(body)),
      });
    }
  }
  return table;
}

function jsonBodySchema(body: unknown): JsonSchema | undefined {
  return (body as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content?.['application/json']
    ?.schema;
}

function bodyFormsOf(document: OpenApiDocument, body: unknown): BodyForm[] {
  const schema = jsonBodySchema(body);
  const forms = (schema?.anyOf ?? schema?.oneOf) as Array<{ $ref?: unknown }> | undefined;
  if (!forms || !forms.every((form) => typeof form.$ref === 'string' && form.$ref.startsWith('#/'))) return [];
  return forms.map((form) => ({ pointer: form.$ref as string, schema: resolveRef<JsonSchema>(document, form) }));
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
