/**
 * The operations the fuzzer attacks, read from the bundled document: every path operation,
 * its path, query and header parameters, and its JSON request body schema.
 */
import { type JsonObject, loadBundledDocument, operationsOf, parametersOf, resolve } from '@ocs/openapi/support';

export interface FuzzParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonObject;
}

export interface FuzzOperation {
  operationId: string;
  method: string;
  /** The path template as in the document (`/campaigns/{campaign_id}`), without `/v1`. */
  path: string;
  parameters: FuzzParameter[];
  /** The request body's schema (resolved from the request body object), if any. */
  body?: { schema: JsonObject; required: boolean };
}

export const document = loadBundledDocument();

export function fuzzOperations(): FuzzOperation[] {
  return operationsOf(document)
    .filter((op) => op.section === 'paths')
    .map((op) => {
      const parameters = parametersOf(document, op).map((p) => ({
        name: p.name as string,
        in: p.in as FuzzParameter['in'],
        required: Boolean(p.required),
        schema: p.schema as JsonObject,
      }));
      const operation: FuzzOperation = {
        operationId: op.operation.operationId as string,
        method: op.method.toUpperCase(),
        path: op.path,
        parameters,
      };
      if (op.operation.requestBody) {
        const { node } = resolve(document, op.operation.requestBody, `${op.pointer}/requestBody`);
        const media = (node.content as JsonObject)['application/json'] as JsonObject;
        operation.body = { schema: media.schema as JsonObject, required: Boolean(node.required) };
      }
      return operation;
    });
}
