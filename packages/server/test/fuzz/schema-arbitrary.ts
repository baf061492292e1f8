/**
 * JSON Schema (the document's 2020-12 subset) to fast-check arbitraries: values that a
 * schema accepts, built only from fast-check's generators. Covers what the document uses:
 * `$ref`, `type` (lists included), `enum`, `const`, `allOf` (merged), `oneOf`/`anyOf` (one
 * branch, merged with its siblings), string formats (uuid, date-time, date, email, uri),
 * `pattern`, lengths, bounds, items and properties. Recursion is cut at `maxDepth`: deeper
 * arrays are empty and deeper optional properties are left out.
 *
 * `hint(name, schema)` may supply an arbitrary for a named property (the fuzzer's real
 * resource IDs); it is asked before the schema is used.
 */
import fc from 'fast-check';
import { followPointer, type Json, type JsonObject } from '@ocs/openapi/support';

export type Schema = JsonObject;
export type Hint = (name: string, schema: Schema) => fc.Arbitrary<unknown> | undefined;

export interface ArbitraryOptions {
  hint?: Hint;
  maxDepth?: number;
  /** Characters of generated strings: any grapheme (default), or printable ASCII (for headers). */
  unit?: 'grapheme' | 'grapheme-ascii';
}

export function schemaArbitrary(
  document: JsonObject,
  schema: Schema,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const maxDepth = options.maxDepth ?? 4;

  function deref(node: Schema): Schema {
    let current = node;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
      const { $ref, ...rest } = current;
      current = { ...(followPointer(document, $ref as string) as Schema), ...rest };
    }
    return current;
  }

  /** allOf merged into one schema; properties and required lists are united. */
  function flatten(node: Schema): Schema {
    let schema = deref(node);
    if (Array.isArray(schema.allOf)) {
      const { allOf, ...rest } = schema;
      schema = (allOf as Schema[]).map(flatten).reduce(merge, flatten(rest));
    }
    return schema;
  }

  function build(node: Schema, depth: number): fc.Arbitrary<unknown> {
    const schema = flatten(node);
    const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    if (union) {
      const rest = { ...schema };
      delete rest.oneOf;
      delete rest.anyOf;
      return fc.oneof(...union.map((branch) => build(merge(rest, flatten(branch)), depth)));
    }
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
    const types = typesOf(schema);
    if (types.length > 1) return fc.oneof(...types.map((type) => build({ ...schema, type }, depth)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return integer(schema);
      case 'number':
        return number(schema);
      case 'string':
        return string(schema, options.unit ?? 'grapheme');
      case 'array':
        return array(schema, depth);
      case 'object':
        return object(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  function array(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const minLength = (schema.minItems as number | undefined) ?? 0;
    const maxLength =
      depth >= maxDepth ? minLength : Math.min((schema.maxItems as number | undefined) ?? 4, minLength + 4);
    const items = schema.items ? build(schema.items as Schema, depth + 1) : fc.jsonValue({ maxDepth: 1 });
    if (maxLength === 0) return fc.constant([]);
    return schema.uniqueItems
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  function object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (depth >= maxDepth && !required.has(name)) continue;
      model[name] = options.hint?.(name, flatten(property)) ?? build(property, depth + 1);
    }
    const minKeys = (schema.minProperties as number | undefined) ?? 0;
    const maxProperties = schema.maxProperties as number | undefined;
    const known = fc
      .record(model, { requiredKeys: [...required].filter((name) => name in model) })
      .chain((value) => trimKeys(value as Record<string, unknown>, minKeys, maxProperties, model));
    const extra = schema.additionalProperties;
    if (!extra || depth >= maxDepth) return known;
    const maxKeys = Math.min((schema.maxProperties as number | undefined) ?? 3, 3);
    const values = extra === true ? fc.jsonValue({ maxDepth: 1 }) : build(extra as Schema, depth + 1);
    const names = fc.string({ minLength: 1, maxLength: 12 }).filter((name) => !(name in properties));
    return fc
      .tuple(known, fc.dictionary(names, values, { maxKeys }))
      .map(([base, more]) => ({ ...more, ...(base as object) }));
  }

  return build(schema, 0);
}

/**
 * Keeps an object within `minProperties`/`maxProperties`: drops keys past the maximum,
 * and adds one generated property when the object came out empty but must not be.
 */
function trimKeys(
  value: Record<string, unknown>,
  minKeys: number,
  maxKeys: number | undefined,
  model: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(value);
  if (maxKeys !== undefined && keys.length > maxKeys) {
    return fc.constant(Object.fromEntries(keys.slice(0, maxKeys).map((key) => [key, value[key]])));
  }
  const names = Object.keys(model);
  if (keys.length >= minKeys || names.length === 0) return fc.constant(value);
  return fc
    .constantFrom(...names)
    .chain((name) => (model[name] as fc.Arbitrary<unknown>).map((extra) => ({ ...value, [name]: extra })));
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function integer(schema: Schema): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? -1_000_000;
  const max = (schema.maximum as number | undefined) ?? Math.max(min, 0) + 1_000_000;
  return fc.integer({ min, max });
}

function number(schema: Schema): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? -1_000_000;
  const max = (schema.maximum as number | undefined) ?? Math.max(min, 0) + 1_000_000;
  return fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true }));
}

function string(schema: Schema, unit: 'grapheme' | 'grapheme-ascii'): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, Math.max(minLength, 40));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date-time':
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter((email) => email.length <= maxLength);
    case 'uri':
      return fc.webUrl({ validSchemes: ['https'] }).filter((url) => url.length <= maxLength);
  }
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((value) => value.length >= minLength && value.length <= maxLength);
  }
  return fc.string({ minLength, maxLength, unit });
}

/** Merges two (flattened) schemas as `allOf` would: properties and required are united. */
function merge(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a, ...b };
  if (a.properties || b.properties) {
    const properties: Record<string, Json> = { ...(a.properties as JsonObject) };
    for (const [name, schema] of Object.entries((b.properties ?? {}) as JsonObject)) {
      properties[name] = name in properties ? { allOf: [properties[name] as Json, schema] } : schema;
    }
    merged.properties = properties;
  }
  if (a.required || b.required) {
    merged.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  }
  if (a.type && b.type) {
    const left = typesOf(a);
    const both = typesOf(b).filter((type) => left.includes(type) || (type === 'integer' && left.includes('number')));
    merged.type = both.length === 1 ? (both[0] as string) : both;
  }
  return merged;
}
