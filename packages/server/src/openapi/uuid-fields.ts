/**
 * Where a schema holds UUIDs (`format: uuid`): the field paths of a request body that the
 * validator writes in lower case (validation.ts). RFC 4122 reads a UUID in either case, and
 * PostgreSQL's `uuid` type does; but an ID compared as text (the memory store of the mock,
 * the reads by ID that match rows to requests) only matches the lower-case form the service
 * writes. Lower-casing at the door makes every store and every operation find the same
 * resource for the same UUID.
 */
import type { JsonSchema, OpenApiDocument } from './operation-table.ts';
import { resolveRef } from './resolve-ref.ts';

/** Property names, and `[]` for every item of an array: `['leads', '[]', 'campaign_id']`. */
export type FieldPath = readonly string[];

export const eachItem = '[]';

/**
 * Every path under `schema` whose schema is a UUID string, through `$ref`s, properties,
 * array items and the branches of `allOf`/`anyOf`/`oneOf` (a path found in any branch). A
 * schema met again on the same path (a recursive one) is not walked twice.
 */
export function uuidFieldPaths(document: OpenApiDocument, schema: JsonSchema | undefined): FieldPath[] {
  const found = new Map<string, FieldPath>();
  const walk = (node: unknown, path: string[], seen: ReadonlySet<unknown>) => {
    const resolved = resolveRef<JsonSchema | undefined>(document, node);
    if (!resolved || typeof resolved !== 'object' || seen.has(resolved)) return;
    const inside = new Set(seen).add(resolved);
    if (resolved.format === 'uuid' && path.length > 0) found.set(path.join('\u0000'), [...path]);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      for (const branch of (resolved[keyword] as unknown[] | undefined) ?? []) walk(branch, path, inside);
    }
    for (const [name, property] of Object.entries((resolved.properties as JsonSchema | undefined) ?? {})) {
      walk(property, [...path, name], inside);
    }
    if (resolved.items !== undefined) walk(resolved.items, [...path, eachItem], inside);
  };
  walk(schema, [], new Set());
  return [...found.values()];
}

/** Whether a parameter's schema is (or may be, in a union) a UUID string. */
export function mayBeUuid(document: OpenApiDocument, schema: JsonSchema): boolean {
  const resolved = resolveRef<JsonSchema>(document, schema);
  if (resolved.format === 'uuid') return true;
  return (['allOf', 'anyOf', 'oneOf'] as const).some((keyword) =>
    ((resolved[keyword] as JsonSchema[] | undefined) ?? []).some((branch) => mayBeUuid(document, branch)),
  );
}
