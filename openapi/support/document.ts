/**
 * Read access to the bundled OpenAPI document for tests and tools: the operations, their
 * responses and examples, with `$ref`s to components followed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  /** `paths` or `webhooks`. */
  section: 'paths' | 'webhooks';
  /** The path template (`/campaigns/{campaign_id}`) or the webhook name. */
  path: string;
  method: (typeof httpMethods)[number];
  /** JSON pointer of the operation inside the document. */
  pointer: string;
  operation: JsonObject;
}

/** Where `npm run generate` writes the bundled document that `@ocs/sdk` ships. */
export const bundledDocumentPath = join(
  import.meta.dirname,
  '..',
  '..',
  'packages',
  'sdk',
  'src',
  'generated',
  'openapi.json',
);

export function loadBundledDocument(): JsonObject {
  return JSON.parse(readFileSync(bundledDocumentPath, 'utf8'));
}

export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function operationsOf(document: JsonObject): Operation[] {
  const result: Operation[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    const items = (document[section] ?? {}) as Record<string, JsonObject>;
    for (const [path, item] of Object.entries(items)) {
      for (const method of httpMethods) {
        const operation = item[method];
        if (operation && typeof operation === 'object' && !Array.isArray(operation)) {
          result.push({
            section,
            path,
            method,
            pointer: `#/${section}/${escapePointer(path)}/${method}`,
            operation,
          });
        }
      }
    }
  }
  return result;
}

/** Follows a local `$ref` (repeatedly) and returns the target with its pointer. */
export function resolve(document: JsonObject, node: Json, pointer: string): { node: JsonObject; pointer: string } {
  let current = node as JsonObject;
  let at = pointer;
  while (current && typeof current.$ref === 'string') {
    at = current.$ref;
    current = followPointer(document, at) as JsonObject;
  }
  return { node: current, pointer: at };
}

export function followPointer(document: JsonObject, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported: ${ref}`);
  let node: Json = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') throw new Error(`Broken reference ${ref}`);
    node = (node as Record<string, Json>)[key] as Json;
    if (node === undefined) throw new Error(`Broken reference ${ref}`);
  }
  return node;
}

/** The parameters of an operation (path-level ones included), resolved. */
export function parametersOf(document: JsonObject, op: Operation): JsonObject[] {
  const item = followPointer(document, op.pointer.slice(0, op.pointer.lastIndexOf('/'))) as JsonObject;
  const all = [...((item.parameters as Json[]) ?? []), ...((op.operation.parameters as Json[]) ?? [])];
  return all.map((parameter, index) => resolve(document, parameter, `${op.pointer}/parameters/${index}`).node);
}

export interface ResponseInfo {
  status: string;
  pointer: string;
  response: JsonObject;
}

export function responsesOf(document: JsonObject, op: Operation): ResponseInfo[] {
  const responses = (op.operation.responses ?? {}) as JsonObject;
  return Object.keys(responses).map((status) => {
    const { node, pointer } = resolve(document, responses[status] as Json, `${op.pointer}/responses/${status}`);
    return { status, pointer, response: node };
  });
}

/** Named examples of a media type object (or its single `example`), resolved. */
export function examplesOf(document: JsonObject, media: JsonObject): Array<{ name: string; value: Json }> {
  if ('example' in media) return [{ name: 'example', value: media.example as Json }];
  const examples = (media.examples ?? {}) as JsonObject;
  return Object.entries(examples).map(([name, example]) => ({
    name,
    value: resolve(document, example, '').node.value as Json,
  }));
}
