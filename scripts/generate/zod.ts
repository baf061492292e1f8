/**
 * Generates `packages/sdk/src/generated/zod.ts` from the bundled document: a zod 4 schema
 * for every component schema (in dependency order; cycles through `z.lazy`), plus the
 * response bodies of every operation keyed by `operationId` and status, and the request
 * bodies keyed by `operationId`, for opt-in runtime validation. Returns the module's
 * source text (without the "generated" header, which `outputs.ts` adds).
 */
import { type EmitContext, pure, type Schema, toZod } from './zod-schema.ts';

const componentPrefix = '#/components/schemas/';
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Runtime helpers the generated schemas call; their names cannot be component names. */
const helpers = `import * as z from 'zod';
import type { components, operations } from './openapi.ts';

/** The JSON body of a response or request body of openapi-typescript's \`operations\`. */
type JsonBody<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

/**
 * A string whose known values are listed but whose other values are accepted too
 * (\`x-extensible-enum\`): typed \`'a' | 'b' | (string & {})\` so editors suggest the known
 * values, validated as any string so that a value added later does not fail parsing.
 */
function extensible<const Known extends string>(schema: z.ZodType<string, string>, known: readonly Known[]) {
  void known;
  return schema as unknown as z.ZodType<Known | (string & {}), string>;
}

/**
 * \`base\`, also checked against \`other\` (\`allOf\`/\`anyOf\`/\`oneOf\` beside
 * \`additionalProperties: false\`), without letting \`other\`'s keys through \`base\`.
 */
function alsoMatches<T extends z.ZodType>(base: T, other: z.ZodType, message: string): T {
  return base.refine((value) => other.safeParse(value).success, { message });
}

function hasKeys(value: object, keys: readonly string[]): boolean {
  return keys.every((key) => Object.prototype.hasOwnProperty.call(value, key));
}

/** JSON Schema \`uniqueItems\`: no two items equal as JSON values (object key order ignored). */
function uniqueItems(items: readonly unknown[]): boolean {
  return new Set(items.map(canonical)).size === items.length;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return \`[\${value.map(canonical).join(',')}]\`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return \`{\${entries.map(([k, v]) => \`\${JSON.stringify(k)}:\${canonical(v)}\`).join(',')}}\`;
  }
  return JSON.stringify(value);
}
`;

const reserved = new Set([
  'z',
  'components',
  'extensible',
  'hasKeys',
  'uniqueItems',
  'canonical',
  'alsoMatches',
  'schemas',
  'operations',
  'JsonBody',
  'responseSchemas',
  'successResponseSchemas',
  'requestBodySchemas',
]);

export function generateZodModule(document: Record<string, unknown>): string {
  const components = ((document.components as Schema | undefined)?.schemas ?? {}) as Record<string, Schema>;
  const names = Object.keys(components);
  for (const name of names) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) || reserved.has(name)) {
      throw new Error(`Component schema name "${name}" cannot be a zod export: rename it or extend the generator`);
    }
  }
  const resolve = (ref: string): Schema => {
    if (!ref.startsWith(componentPrefix)) throw new Error(`Only component schema references are supported: ${ref}`);
    const target = components[ref.slice(componentPrefix.length)];
    if (!target) throw new Error(`Broken reference ${ref}`);
    return target;
  };
  const dependencies = new Map(names.map((name) => [name, referencesOf(components[name])]));
  for (const [name, refs] of dependencies) {
    for (const ref of refs) if (!(ref in components)) throw new Error(`${name} references the unknown schema ${ref}`);
  }

  const out: string[] = [helpers];
  for (const group of stronglyConnected(names, dependencies)) {
    const recursive = group.length > 1 || (dependencies.get(group[0] as string)?.has(group[0] as string) ?? false);
    const members = new Set(group);
    for (const name of group) {
      const ctx: EmitContext = {
        ref: (target) => (recursive && members.has(target) ? pure(`z.lazy(() => ${target})`) : target),
        resolve,
      };
      const schema = components[name] as Schema;
      const expression = toZod(schema, ctx, `${componentPrefix}${name}`);
      const doc = jsDoc(schema.description);
      if (doc) out.push(doc);
      // The compiler checks each schema's output against openapi-typescript's type of the same
      // component. A schema inside a cycle cannot infer its own type: it takes that type.
      const documented = `z.ZodType<components['schemas'][${JSON.stringify(name)}]>`;
      out.push(
        recursive
          ? `export const ${name}: ${documented} = ${expression};`
          : `export const ${name} = ${expression} satisfies ${documented};`,
      );
      out.push(`export type ${name} = z.output<typeof ${name}>;\n`);
    }
  }

  out.push(
    '/** Every component schema by name. Importing this object keeps all of them in a bundle. */',
    `export const schemas = { ${names.join(', ')} } as const;\n`,
  );
  out.push(...operationMaps(document, { ref: (name) => name, resolve }, names));
  return out.join('\n');
}

/** The component names a schema references, directly or in nested schemas. */
function referencesOf(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) referencesOf(item, found);
  } else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(componentPrefix)) {
        found.add(value.slice(componentPrefix.length));
      } else if (key !== 'example' && key !== 'examples' && key !== 'default' && key !== 'const' && key !== 'enum') {
        referencesOf(value, found);
      }
    }
  }
  return found;
}

/**
 * Tarjan's algorithm: the strongly connected components, each listed after every component
 * it depends on, so that emitting them in order defines every schema before its first
 * direct use. Nodes are visited in document order to keep the output stable.
 */
function stronglyConnected(nodes: string[], edges: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.unshift(member);
      } while (member !== node);
      groups.push(group.sort((a, b) => nodes.indexOf(a) - nodes.indexOf(b)));
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups;
}

interface BodySchema {
  operationId: string;
  /** The status of a response body, or undefined for a request body. */
  status?: string;
  schema: Schema;
  /** The shared component (`#/components/responses/Unauthorized`) it came from, if any. */
  sharedName?: string;
}

/**
 * `responseSchemas.createCampaign[201]`, `successResponseSchemas.createCampaign` and
 * `requestBodySchemas.createCampaign`. Identical
 * inline schemas (the error bodies shared by many operations) are emitted once.
 */
function operationMaps(document: Record<string, unknown>, ctx: EmitContext, componentNames: string[]): string[] {
  const bodies = collectBodies(document);
  const counts = new Map<string, number>();
  for (const body of bodies)
    counts.set(JSON.stringify(body.schema), (counts.get(JSON.stringify(body.schema)) ?? 0) + 1);

  const out: string[] = [];
  const sharedNames = new Map<string, string>();
  const taken = new Set<string>(componentNames);
  const expressionOf = (body: BodySchema): string => {
    const key = JSON.stringify(body.schema);
    const where = `${body.operationId} ${body.status ?? 'request body'}`;
    if ((counts.get(key) ?? 0) < 2 || isPlainRef(body.schema)) return toZod(body.schema, ctx, where);
    let name = sharedNames.get(key);
    if (!name) {
      name = uniqueName(body.sharedName ? `${body.sharedName}Body` : `sharedBody${sharedNames.size + 1}`, taken);
      sharedNames.set(key, name);
      out.push(`const ${name} = ${toZod(body.schema, ctx, where)};`);
    }
    return name;
  };

  const responses = new Map<string, string[]>();
  const successes = new Map<string, Array<{ name: string; type: string }>>();
  const requests: string[] = [];
  // Each entry is typed as the document's type of that body, written out so that the
  // declaration file names it (an inferred zod type would be expanded in full, ~1 MB), and
  // checked against it with \`satisfies\`.
  const typedAs = (expression: string, type: string) =>
    `${expression} satisfies z.ZodType<${type}> as z.ZodType<${type}>`;
  for (const body of bodies) {
    const expression = expressionOf(body);
    const operation = `operations[${JSON.stringify(body.operationId)}]`;
    if (body.status === undefined) {
      requests.push(
        `  ${body.operationId}: ${typedAs(expression, `JsonBody<NonNullable<${operation}['requestBody']>>`)},`,
      );
    } else {
      const key = /^\d+$/.test(body.status) ? body.status : JSON.stringify(body.status);
      const type = `JsonBody<${operation}['responses'][${key}]>`;
      const list = responses.get(body.operationId) ?? [];
      if (/^2\d\d$/.test(body.status)) {
        // Success bodies sit in both maps: a const of their own, so that neither map reads
        // the other (a property read would keep the whole other map in a bundle).
        const name = uniqueName(`${body.operationId}${body.status}`, taken);
        out.push(`const ${name} = ${expression};`);
        list.push(`    ${key}: ${typedAs(name, type)},`);
        successes.set(body.operationId, [...(successes.get(body.operationId) ?? []), { name, type }]);
      } else {
        list.push(`    ${key}: ${typedAs(expression, type)},`);
      }
      responses.set(body.operationId, list);
    }
  }
  out.push(
    '',
    '/**',
    ' * The JSON body schema of every documented response, by `operationId` and status, for',
    ' * opt-in validation of what the API answers: `responseSchemas.getCampaign[200].parse(body)`.',
    ' */',
    'export const responseSchemas = {',
    ...[...responses].map(([operationId, lines]) => `  ${operationId}: {\n${lines.join('\n')}\n  },`),
    '} as const;',
    '',
    '/**',
    ' * The success (2xx) body schema of every operation that answers one, by `operationId`: the',
    ' * shape `createClient({ validate })` takes, so that named operations validate what they return.',
    ' */',
    'export const successResponseSchemas = {',
    ...[...successes].map(([operationId, list]) => {
      const type = `z.ZodType<${list.map((s) => s.type).join(' | ')}>`;
      const schema = list.length === 1 ? list[0]?.name : pure(`z.union([${list.map((s) => s.name).join(', ')}])`);
      return `  ${operationId}: ${schema} as ${type},`;
    }),
    '} as const;',
    '',
    '/** The JSON request body schema of every operation that takes one, by `operationId`. */',
    'export const requestBodySchemas = {',
    ...requests,
    '} as const;',
    '',
  );
  return out;
}

function isPlainRef(schema: Schema): boolean {
  return typeof schema.$ref === 'string' && Object.keys(schema).length === 1;
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name) || reserved.has(name); n += 1) name = `${base}${n}`;
  taken.add(name);
  return name;
}

function collectBodies(document: Record<string, unknown>): BodySchema[] {
  const bodies: BodySchema[] = [];
  const seenIds = new Set<string>();
  for (const section of ['paths', 'webhooks']) {
    for (const [path, item] of Object.entries((document[section] ?? {}) as Record<string, Schema>)) {
      for (const method of methods) {
        const operation = item[method] as Schema | undefined;
        if (!operation) continue;
        const operationId = operation.operationId;
        if (typeof operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
        if (seenIds.has(operationId)) throw new Error(`operationId ${operationId} is used twice`);
        seenIds.add(operationId);
        if (operation.requestBody) {
          const { node } = follow(document, operation.requestBody);
          const schema = jsonSchemaOf(node);
          if (schema) bodies.push({ operationId, schema });
        }
        for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, unknown>)) {
          const { node, sharedName } = follow(document, response);
          const schema = jsonSchemaOf(node);
          if (schema) bodies.push({ operationId, status, schema, sharedName });
        }
      }
    }
  }
  return bodies;
}

/** Follows `$ref`s to `#/components/<kind>/<name>`, remembering the last name. */
function follow(document: Record<string, unknown>, node: unknown): { node: Schema; sharedName?: string } {
  let current = node as Schema;
  let sharedName: string | undefined;
  while (typeof current.$ref === 'string') {
    const ref = current.$ref;
    sharedName = ref.slice(ref.lastIndexOf('/') + 1);
    current = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (at, key) => (at as Schema)[key.replaceAll('~1', '/').replaceAll('~0', '~')],
        document,
      ) as Schema;
    if (!current) throw new Error(`Broken reference ${ref}`);
  }
  return { node: current, sharedName };
}

function jsonSchemaOf(node: Schema): Schema | undefined {
  const content = node.content as Record<string, Schema> | undefined;
  return content?.['application/json']?.schema as Schema | undefined;
}

function jsDoc(description: unknown): string {
  if (typeof description !== 'string' || description.trim() === '') return '';
  const lines = description.trim().replaceAll('*/', '*\\/').split('\n');
  return `/**\n${lines.map((line) => ` *${line ? ` ${line}` : ''}`).join('\n')}\n */`;
}
