/** Local `$ref`s of the OpenAPI document, followed. */
import type { OpenApiDocument } from './operation-table.ts';

/** `node`, or what its local `$ref` (`#/components/...`) points to, followed to the end. */
export function resolveRef<T>(document: OpenApiDocument, node: unknown): T {
  let current = node as { $ref?: string };
  while (current && typeof current.$ref === 'string') {
    let target: unknown = document;
    for (const segment of current.$ref.slice(2).split('/')) {
      target = (target as Record<string, unknown>)[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    current = target as { $ref?: string };
  }
  return current as T;
}
