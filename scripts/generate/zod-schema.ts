/**
 * Translates one JSON Schema (the 2020-12 subset the OpenAPI document uses) into the source
 * text of a zod 4 expression. Used by `zod.ts`, which orders the components and writes the
 * module. Anything outside the subset throws: a schema the generator does not understand
 * must fail generation, not turn silently into `z.unknown()`.
 *
 * Forward compatibility, as the document asks of clients: objects keep unknown keys
 * (`z.looseObject`) unless the schema says `additionalProperties: false`, and
 * `x-extensible-enum` values are plain strings typed as `'known' | (string & {})`.
 */

export type Schema = { [key: string]: unknown };

export interface EmitContext {
  /** The expression that refers to a component schema (its name, or a `z.lazy` inside a cycle). */
  ref(name: string): string;
  /** The schema a `$ref` points to, for the checks that need to look through references. */
  resolve(ref: string): Schema;
}

/** Keywords that only annotate: they change nothing a validator does. */
const annotations = new Set([
  'description',
  'title',
  'summary',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
]);

const supported = new Set([
  '$ref',
  'type',
  'enum',
  'const',
  'format',
  'x-extensible-enum',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'allOf',
  'anyOf',
  'oneOf',
]);

/** JSON Schema formats and the zod 4 string formats closest to ajv-formats' reading of them. */
const formats: Record<string, string> = {
  // `z.guid()` accepts any 8-4-4-4-12 hex string, as JSON Schema's `uuid` does; `z.uuid()`
  // would also demand an RFC 9562 version and variant.
  uuid: 'z.guid()',
  // RFC 3339: an offset or `Z` is required (the service sends `+00:00`).
  'date-time': 'z.iso.datetime({ offset: true })',
  date: 'z.iso.date()',
  uri: 'z.url()',
  email: 'z.email()',
};

const schemaTypes = ['string', 'integer', 'number', 'boolean', 'array', 'object', 'null'] as const;
type SchemaType = (typeof schemaTypes)[number];

/**
 * @param objectContext the schema is a branch of `allOf`/`anyOf`/`oneOf` on an object schema:
 *   object keywords without a `type` then constrain that object (as JSON Schema reads them).
 */
export function toZod(schema: unknown, ctx: EmitContext, where: string, objectContext = false): string {
  return pure(translate(schema, ctx, where, objectContext));
}

/**
 * Marks a call as free of side effects so that bundlers drop the schemas a program does not
 * use. Every nested call needs its own mark: esbuild keeps a marked call whose arguments
 * contain an unmarked one.
 */
export function pure(expression: string): string {
  const isCall = expression.endsWith(')') && !expression.startsWith('/*');
  return isCall ? `/* @__PURE__ */ ${expression}` : expression;
}

function translate(schema: unknown, ctx: EmitContext, where: string, objectContext: boolean): string {
  const s = asSchema(schema, where);
  for (const key of Object.keys(s)) {
    if (!supported.has(key) && !annotations.has(key) && !key.startsWith('x-')) {
      throw new Error(`${where}: the zod generator does not support the keyword "${key}"`);
    }
  }
  if (typeof s.$ref === 'string') return refWithSiblings(s, ctx, where);

  const own = typed(s, ctx, where, objectContext);
  let result = own && pure(own);
  const inner = s.type === 'object' || objectContext;
  // Schemas that must match too (allOf, oneOf, anyOf beside the schema's own keywords).
  const also: Array<{ expression: string; label: string }> = [];
  if (Array.isArray(s.allOf)) {
    s.allOf.forEach((part, i) => {
      also.push({ expression: toZod(part, ctx, `${where}/allOf/${i}`, inner), label: `allOf/${i}` });
    });
  }
  if (Array.isArray(s.oneOf)) {
    also.push({ expression: pure(oneOf(s.oneOf, ctx, `${where}/oneOf`, inner)), label: 'oneOf' });
  }
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf.map((b, i) => asSchema(b, `${where}/anyOf/${i}`));
    const keys = branches.map((b) => (Array.isArray(b.required) ? (b.required as string[]).join(' and ') : '?'));
    const label = keys.includes('?') ? 'anyOf' : `${keys.join(', or ')} (anyOf)`;
    if (branches.every(isRequiredOnly)) {
      // `anyOf: [{ required: [a] }, { required: [b] }]`: "at least one of these keys".
      const sets = branches.map((b) => JSON.stringify(b.required));
      result = `${result ?? anyObject}.refine((value) => [${sets.join(', ')}].some((keys) => hasKeys(value, keys)), { message: ${JSON.stringify(`must have ${label}`)} })`;
    } else {
      const union = `z.union([${branches.map((b, i) => toZod(b, ctx, `${where}/anyOf/${i}`, inner)).join(', ')}])`;
      also.push({ expression: pure(union), label });
    }
  }
  if (also.length === 0) return result ?? 'z.unknown()';
  if (result && s.additionalProperties === false) {
    // JSON Schema's `additionalProperties: false` ignores keys that only the other schemas
    // declare, but a zod intersection accepts a key either side knows: so the others are
    // checked as refinements of the strict object instead of being intersected with it.
    for (const { expression, label } of also) {
      result = `alsoMatches(${pure(result)}, ${expression}, ${JSON.stringify(`must match ${label}`)})`;
    }
    return result;
  }
  return [...(result ? [result] : []), ...also.map((a) => a.expression)].reduce(
    (left, right) => `z.intersection(${pure(left)}, ${right})`,
  );
}

const anyObject = `z.record(${pure('z.string()')}, ${pure('z.unknown()')})`;

function asSchema(schema: unknown, where: string): Schema {
  if (schema === true) return {};
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new Error(`${where}: expected a schema object`);
  }
  return schema as Schema;
}

function isRequiredOnly(s: Schema): boolean {
  return Array.isArray(s.required) && Object.keys(s).every((k) => k === 'required' || annotations.has(k));
}

/** `$ref` with validation keywords beside it (allowed in 3.1) means both must hold. */
function refWithSiblings(s: Schema, ctx: EmitContext, where: string): string {
  const ref = s.$ref as string;
  const prefix = '#/components/schemas/';
  if (!ref.startsWith(prefix)) throw new Error(`${where}: only references to component schemas are supported (${ref})`);
  const target = ctx.ref(ref.slice(prefix.length));
  const rest = Object.fromEntries(
    Object.entries(s).filter(([k]) => k !== '$ref' && !annotations.has(k) && !k.startsWith('x-')),
  );
  return Object.keys(rest).length === 0 ? target : `z.intersection(${target}, ${toZod(rest, ctx, where)})`;
}

/**
 * `oneOf` is emitted as `z.union`, which means "at least one". That is exact only when the
 * branches cannot match the same value, so the generator demands branches of disjoint types.
 * `oneOf: [X, { type: 'null' }]` becomes `X.nullable()`.
 */
function oneOf(branches: unknown[], ctx: EmitContext, where: string, objectContext: boolean): string {
  const seen = new Set<string>();
  for (const [i, branch] of branches.entries()) {
    for (const type of typesOf(asSchema(branch, `${where}/${i}`), ctx, `${where}/${i}`, objectContext)) {
      if (seen.has(type)) {
        throw new Error(`${where}: oneOf branches must have disjoint types for z.union to be exact (${type} twice)`);
      }
      seen.add(type);
    }
  }
  const nullIndex = branches.findIndex((b) => isNullOnly(asSchema(b, where)));
  if (branches.length === 2 && nullIndex >= 0) {
    return `${toZod(branches[1 - nullIndex], ctx, `${where}/${1 - nullIndex}`, objectContext)}.nullable()`;
  }
  return `z.union([${branches.map((b, i) => toZod(b, ctx, `${where}/${i}`, objectContext)).join(', ')}])`;
}

function isNullOnly(s: Schema): boolean {
  return s.type === 'null' && Object.keys(s).every((k) => k === 'type' || annotations.has(k));
}

/** The JSON types a schema can match (`integer` counts as `number`), through references. */
function typesOf(s: Schema, ctx: EmitContext, where: string, objectContext: boolean): string[] {
  if (typeof s.$ref === 'string') return typesOf(ctx.resolve(s.$ref), ctx, where, objectContext);
  const declared = Array.isArray(s.type)
    ? s.type
    : typeof s.type === 'string'
      ? [s.type]
      : objectContext
        ? ['object']
        : undefined;
  if (!declared) throw new Error(`${where}: a oneOf branch needs a type`);
  return [...new Set(declared.map((t) => (t === 'integer' ? 'number' : String(t))))];
}

/** The part of the schema given by `type` (and `enum`/`const`), or undefined when untyped. */
function typed(s: Schema, ctx: EmitContext, where: string, objectContext: boolean): string | undefined {
  if ('const' in s) return `z.literal(${JSON.stringify(s.const)})`;
  if (Array.isArray(s.enum)) return enumSchema(s.enum, where);
  const objectKeywords = ['properties', 'additionalProperties', 'minProperties', 'maxProperties'];
  const implied = objectContext && s.type === undefined && objectKeywords.some((k) => k in s);
  const types = Array.isArray(s.type)
    ? (s.type as unknown[])
    : implied
      ? ['object']
      : s.type === undefined
        ? []
        : [s.type];
  for (const t of types) {
    if (!schemaTypes.includes(t as SchemaType)) throw new Error(`${where}: unknown type ${JSON.stringify(t)}`);
  }
  if (types.length === 0) {
    const typeSpecific = Object.keys(s).filter(
      (k) => supported.has(k) && !['allOf', 'anyOf', 'oneOf', 'required', 'x-extensible-enum'].includes(k),
    );
    if (typeSpecific.length > 0) {
      throw new Error(`${where}: ${typeSpecific.join(', ')} without a type is not supported`);
    }
    return undefined;
  }
  const branches = (types as SchemaType[]).filter((t) => t !== 'null').map((t) => pure(typeBranch(t, s, ctx, where)));
  const nullable = types.includes('null');
  if (branches.length === 0) return 'z.null()';
  const joined = branches.length === 1 ? (branches[0] as string) : `z.union([${branches.join(', ')}])`;
  return nullable ? `${joined}.nullable()` : joined;
}

function enumSchema(values: unknown[], where: string): string {
  const nonNull = values.filter((v) => v !== null);
  if (nonNull.length === 0) throw new Error(`${where}: an enum needs a value other than null`);
  const base = nonNull.every((v) => typeof v === 'string')
    ? `z.enum(${JSON.stringify(nonNull)})`
    : `z.literal(${JSON.stringify(nonNull)})`;
  return nonNull.length < values.length ? `${base}.nullable()` : base;
}

function typeBranch(type: Exclude<SchemaType, 'null'>, s: Schema, ctx: EmitContext, where: string): string {
  switch (type) {
    case 'string':
      return stringSchema(s, where);
    case 'integer':
      return numberChecks('z.int()', s);
    case 'number':
      return numberChecks('z.number()', s);
    case 'boolean':
      return 'z.boolean()';
    case 'array':
      return arraySchema(s, ctx, where);
    case 'object':
      return objectSchema(s, ctx, where);
  }
}

function stringSchema(s: Schema, where: string): string {
  let out = 'z.string()';
  if (s.format !== undefined) {
    const format = formats[String(s.format)];
    if (!format) throw new Error(`${where}: unsupported format ${JSON.stringify(s.format)}`);
    out = format;
  }
  // zod counts UTF-16 code units where JSON Schema counts code points: the same for every
  // value outside the astral planes, which is all this API's bounded strings hold.
  if (typeof s.minLength === 'number') out += `.min(${s.minLength})`;
  if (typeof s.maxLength === 'number') out += `.max(${s.maxLength})`;
  // A literal rather than `new RegExp(...)`, which bundlers cannot prove free of side effects.
  if (typeof s.pattern === 'string') out += `.regex(/${new RegExp(s.pattern, 'u').source}/u)`;
  const known = s['x-extensible-enum'];
  if (Array.isArray(known)) out = `extensible(${pure(out)}, ${JSON.stringify(known)})`;
  return out;
}

function numberChecks(base: string, s: Schema): string {
  let out = base;
  if (typeof s.minimum === 'number') out += `.gte(${s.minimum})`;
  if (typeof s.maximum === 'number') out += `.lte(${s.maximum})`;
  if (typeof s.exclusiveMinimum === 'number') out += `.gt(${s.exclusiveMinimum})`;
  if (typeof s.exclusiveMaximum === 'number') out += `.lt(${s.exclusiveMaximum})`;
  if (typeof s.multipleOf === 'number') out += `.multipleOf(${s.multipleOf})`;
  return out;
}

function arraySchema(s: Schema, ctx: EmitContext, where: string): string {
  let out = `z.array(${s.items === undefined ? pure('z.unknown()') : toZod(s.items, ctx, `${where}/items`)})`;
  if (typeof s.minItems === 'number') out += `.min(${s.minItems})`;
  if (typeof s.maxItems === 'number') out += `.max(${s.maxItems})`;
  if (s.uniqueItems === true) out += `.refine(uniqueItems, { message: 'items must be unique' })`;
  return out;
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * An optional property. One with a `default` gets it when absent, as openapi-typescript's
 * types promise (they make such properties required): parsed values match the documented
 * types. Objects and arrays come from a function, so no two results share one instance.
 */
function optional(property: unknown): string {
  const value = (property as Schema | undefined)?.default;
  if (value === undefined) return '.optional()';
  const json = JSON.stringify(value);
  return value !== null && typeof value === 'object' ? `.default(() => (${json}))` : `.default(${json})`;
}

function objectSchema(s: Schema, ctx: EmitContext, where: string): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set((s.required ?? []) as string[]);
  const extra = s.additionalProperties;
  let out: string;
  if (Object.keys(properties).length === 0) {
    if (extra === false) out = 'z.strictObject({})';
    else if (extra && typeof extra === 'object')
      out = `z.record(${pure('z.string()')}, ${toZod(extra, ctx, `${where}/additionalProperties`)})`;
    else out = anyObject;
  } else {
    const shape = Object.entries(properties).map(([key, value]) => {
      const name = identifier.test(key) ? key : JSON.stringify(key);
      const schema = toZod(value, ctx, `${where}/properties/${key}`);
      return `${name}: ${required.has(key) ? schema : pure(`${schema}${optional(value)}`)}`;
    });
    const body = `{ ${shape.join(', ')} }`;
    if (extra === false) out = `z.strictObject(${body})`;
    else if (extra && typeof extra === 'object')
      out = `z.object(${body}).catchall(${toZod(extra, ctx, `${where}/additionalProperties`)})`;
    else out = `z.looseObject(${body})`;
  }
  // `required` keys the schema does not describe: present, with any value.
  const undescribed = [...required].filter((key) => !(key in properties));
  if (undescribed.length > 0) {
    out += `.refine((value) => hasKeys(value, ${JSON.stringify(undescribed)}), { message: ${JSON.stringify(`must have ${undescribed.join(', ')}`)} })`;
  }
  if (typeof s.minProperties === 'number') {
    out += `.refine((value) => Object.keys(value).length >= ${s.minProperties}, { message: 'must have at least ${s.minProperties} properties' })`;
  }
  if (typeof s.maxProperties === 'number') {
    out += `.refine((value) => Object.keys(value).length <= ${s.maxProperties}, { message: 'must have at most ${s.maxProperties} properties' })`;
  }
  return out;
}
