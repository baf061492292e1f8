/**
 * Generates `packages/sdk/src/generated/operations.ts` from the bundled document: one
 * exported, tree-shakable function per operation, each a one-line entry of a data table
 * (`op(operationId, route, queryNames, flags, itemsKey)`) read by the SDK's shared caller,
 * so that the generated module stays small at runtime whatever the number of operations.
 *
 * The generator refuses what the caller could not route: a parameter name used twice
 * (path, query and body keys share one flat `params` object), a header parameter other
 * than `X-Request-ID` and `Idempotency-Key` (headers travel in `options`), a path or query
 * parameter that is not a scalar, a request body that is not a JSON object, a list operation whose items key is ambiguous, and a
 * deprecated operation whose successor cannot be found.
 */
export type Json = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'patch', 'delete'] as const;
/** Header parameters the SDK sends from `options`, never from `params`. */
const optionHeaders = new Set(['x-request-id', 'idempotency-key']);

/** Flags of an operation, as the SDK's caller reads them (src/operation.ts). */
export const FLAG_BODY = 1;
export const FLAG_IDEMPOTENT = 2;

export interface Operation {
  id: string;
  method: string;
  path: string;
  op: Json;
  pathNames: string[];
  queryNames: string[];
  bodyNames: string[];
  /** Body fields that are optional with a default (openapi-typescript makes them required). */
  bodyDefaults: string[];
  bodyRequired: boolean;
  hasBody: boolean;
  idempotent: boolean;
  itemsKey?: string;
  errors: Map<string, Set<string>>;
  successor?: { id: string; route: string };
}

export function resolve(document: Json, value: unknown): Json {
  let node = value as Json;
  const seen = new Set<string>();
  while (node && typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (seen.has(ref)) throw new Error(`Circular $ref ${ref}`);
    seen.add(ref);
    if (!ref.startsWith('#/')) throw new Error(`Only local $ref are supported, got ${ref}`);
    node = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Json)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) as Json;
    if (!node) throw new Error(`Unresolved $ref ${ref}`);
  }
  return node;
}

/** Property names of an object schema, through `$ref`, `allOf`, `anyOf` and `oneOf`. */
function propertyNames(document: Json, schema: unknown, into = new Set<string>()): Set<string> {
  const node = resolve(document, schema);
  if (node.properties) for (const name of Object.keys(node.properties as Json)) into.add(name);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const part of (node[key] as unknown[] | undefined) ?? []) propertyNames(document, part, into);
  }
  return into;
}

/** Top-level properties that have a `default` and are not required. */
function defaultedProperties(document: Json, schema: unknown): string[] {
  const node = resolve(document, schema);
  const required = new Set((node.required as string[] | undefined) ?? []);
  const own = Object.entries((node.properties as Json | undefined) ?? {})
    .filter(([name, property]) => !required.has(name) && 'default' in resolve(document, property))
    .map(([name]) => name);
  const parts = ((node.allOf as unknown[] | undefined) ?? []).flatMap((part) => defaultedProperties(document, part));
  return [...own, ...parts];
}

function isObjectSchema(document: Json, schema: unknown): boolean {
  const node = resolve(document, schema);
  const type = node.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) return true;
  if ((node.allOf as unknown[] | undefined)?.some((part) => isObjectSchema(document, part))) return true;
  // A body with several forms (`POST /leads`: one lead or a batch), each an object.
  const forms = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
  return forms !== undefined && forms.length > 0 && forms.every((part) => isObjectSchema(document, part));
}

/** The items key of a list response: `allOf: [PageEnvelope, { <key>: array }]`. */
function listItemsKey(document: Json, id: string, op: Json): string | undefined {
  const ok = resolve(document, (op.responses as Json)['200']);
  const schema = resolve(
    document,
    ((ok.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema,
  );
  const parts = (schema?.allOf as Json[] | undefined) ?? [];
  if (!parts.some((part) => part.$ref === '#/components/schemas/PageEnvelope')) return undefined;
  const keys: string[] = [];
  for (const part of parts) {
    if (part.$ref) continue;
    for (const [name, property] of Object.entries((resolve(document, part).properties as Json | undefined) ?? {})) {
      if (resolve(document, property).type === 'array') keys.push(name);
    }
  }
  if (keys.length !== 1) {
    throw new Error(`${id}: a list response needs exactly one array property beside PageEnvelope, found [${keys}]`);
  }
  return keys[0];
}

const routePattern = /`(GET|PUT|POST|PATCH|DELETE) (\/[^`\s]*)`/;

/**
 * The successor of a deprecated operation: the route named by its `Link` header's
 * description (`The successor operation, \`POST /v1/leads\``), else the first route its
 * description tells to use (`Deprecated: use \`POST /leads\``).
 */
function findSuccessor(document: Json, operation: Operation, byRoute: Map<string, string>) {
  const candidates: string[] = [];
  for (const response of Object.values(operation.op.responses as Json)) {
    const link = (resolve(document, response).headers as Json | undefined)?.Link;
    if (link) candidates.push(String(resolve(document, link).description ?? ''));
  }
  candidates.push(String(operation.op.description ?? ''));
  for (const text of candidates) {
    const match = routePattern.exec(text);
    if (!match) continue;
    const route = `${match[1]} ${(match[2] ?? '').replace(/^\/v1(?=\/)/, '')}`;
    const id = byRoute.get(route);
    if (id && id !== operation.id) return { id, route };
  }
  throw new Error(
    `${operation.id} is deprecated but names no successor operation: add a Link header description or a description sentence "use \`METHOD /path\`".`,
  );
}

export function collectOperations(document: Json): Operation[] {
  const operations: Operation[] = [];
  const ids = new Set<string>();
  for (const [path, rawItem] of Object.entries(document.paths as Json)) {
    const item = resolve(document, rawItem);
    for (const method of methods) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const id = op.operationId;
      if (typeof id !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(id)) {
        throw new Error(`${method.toUpperCase()} ${path}: operationId must be camelCase, got ${String(id)}`);
      }
      if (ids.has(id)) throw new Error(`operationId ${id} is used twice`);
      ids.add(id);
      const parameters = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(
        (parameter) => resolve(document, parameter),
      );
      const pathNames: string[] = [];
      const queryNames: string[] = [];
      let idempotent = false;
      for (const parameter of parameters) {
        const name = String(parameter.name);
        if (parameter.in === 'path' || parameter.in === 'query') {
          // The SDK writes each value whole (fillPath, serializeQuery's scalars): an array
          // would go out as one encoded string (`a%2Cb`), in neither OpenAPI style.
          const type = [resolve(document, parameter.schema).type].flat();
          if (!type.every((t) => ['string', 'integer', 'number', 'boolean', 'null'].includes(String(t)))) {
            throw new Error(
              `${id}: the ${parameter.in} parameter ${name} is not a scalar; the SDK's caller sends scalars only.`,
            );
          }
          (parameter.in === 'path' ? pathNames : queryNames).push(name);
        } else if (parameter.in === 'header' && optionHeaders.has(name.toLowerCase())) {
          if (name.toLowerCase() === 'idempotency-key') idempotent = true;
        } else {
          throw new Error(
            `${id}: the ${String(parameter.in)} parameter ${name} has no place in the SDK's call (only path and query parameters go in params; X-Request-ID and Idempotency-Key come from options).`,
          );
        }
      }
      const requestBody = op.requestBody ? resolve(document, op.requestBody) : undefined;
      const bodySchema = ((requestBody?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
      if (requestBody && (!bodySchema || !isObjectSchema(document, bodySchema))) {
        throw new Error(`${id}: the request body must be a JSON object so that its fields can sit in params`);
      }
      const bodyNames = bodySchema ? [...propertyNames(document, bodySchema)] : [];
      const bodyDefaults = bodySchema ? defaultedProperties(document, bodySchema) : [];
      const seen = new Map<string, string>();
      for (const [where, names] of [
        ['path', pathNames],
        ['query', queryNames],
        ['body', bodyNames],
      ] as const) {
        for (const name of names) {
          const before = seen.get(name);
          if (before) {
            throw new Error(
              `${id}: parameter name collision: "${name}" is both a ${before} and a ${where} parameter, so it cannot sit in one flat params object. Rename one in the document.`,
            );
          }
          seen.set(name, where);
        }
      }
      operations.push({
        id,
        method: method.toUpperCase(),
        path,
        op,
        pathNames,
        queryNames,
        bodyNames,
        bodyDefaults,
        bodyRequired: requestBody?.required === true,
        hasBody: Boolean(requestBody),
        idempotent,
        itemsKey: method === 'get' ? listItemsKey(document, id, op) : undefined,
        errors: errorCodes(document, op),
      });
    }
  }
  const byRoute = new Map(operations.map((operation) => [`${operation.method} ${operation.path}`, operation.id]));
  for (const operation of operations) {
    if (operation.op.deprecated === true) operation.successor = findSuccessor(document, operation, byRoute);
  }
  return operations;
}

/** Keeps a text safe inside a JSDoc block. */
export const doc = (text: string) => text.replace(/\*\//g, '*\\/').trim();

function firstParagraph(text: unknown): string {
  return doc(String(text ?? '').split(/\n\s*\n/)[0] ?? '').replace(/\s*\n\s*/g, ' ');
}

/** Wraps words into lines, never inside a `code span`. */
export function wrap(text: string, width = 96): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.match(/(?:`[^`]*`|\S)+/g) ?? []) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Error codes an operation documents, by status (shared responses included). */
function errorCodes(document: Json, op: Json): Map<string, Set<string>> {
  const everyCode = resolve(document, { $ref: '#/components/schemas/ErrorCode' });
  const byStatus = new Map<string, Set<string>>();
  for (const [status, raw] of Object.entries(op.responses as Json)) {
    if (status.startsWith('2')) continue;
    const codes = new Set<string>();
    const visit = (node: unknown) => {
      const resolved = resolve(document, node);
      const error = (resolved.properties as Json | undefined)?.error;
      if (error) {
        const schema = resolve(document, error);
        if (Array.isArray(schema.enum) && schema !== everyCode) for (const code of schema.enum) codes.add(String(code));
        if (typeof schema.const === 'string') codes.add(schema.const);
      }
      for (const part of (resolved.allOf as unknown[] | undefined) ?? []) visit(part);
    };
    const media = (resolve(document, raw).content as Json | undefined)?.['application/json'] as Json | undefined;
    if (media?.schema) visit(media.schema);
    byStatus.set(status, codes);
  }
  return byStatus;
}

/** `status code, code` for the codes that are not answered by every operation alike. */
function specificErrors(operation: Operation, common: Map<string, Set<string>>): string[] {
  const parts: string[] = [];
  for (const [status, codes] of operation.errors) {
    const own = [...codes].filter((code) => !common.get(status)?.has(code));
    if (own.length) parts.push(`${status} ${own.join(', ')}`);
  }
  return parts;
}

/**
 * Codes answered with the same status by nearly every operation (the shared 401, 403,
 * 429, 500 and 503 answers): left out of each operation's list, which names its own.
 */
function commonErrors(operations: Operation[]): Map<string, Set<string>> {
  const counts = new Map<string, number>();
  for (const operation of operations) {
    for (const [status, codes] of operation.errors) {
      for (const code of codes) counts.set(`${status} ${code}`, (counts.get(`${status} ${code}`) ?? 0) + 1);
    }
  }
  const common = new Map<string, Set<string>>();
  for (const [key, count] of counts) {
    if (count < operations.length * 0.9) continue;
    const [status = '', code = ''] = key.split(' ');
    common.set(status, (common.get(status) ?? new Set()).add(code));
  }
  return common;
}

function exampleValue(document: Json, schemaOrParameter: Json): unknown {
  if ('example' in schemaOrParameter) return schemaOrParameter.example;
  const examples = schemaOrParameter.examples as Json | undefined;
  if (examples) {
    const first = Object.values(examples)[0];
    if (first !== undefined) return resolve(document, first).value;
  }
  const schema = schemaOrParameter.schema ? resolve(document, schemaOrParameter.schema) : undefined;
  return schema && 'example' in schema ? schema.example : undefined;
}

function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const text = Array.isArray(value)
    ? `[${value.map(literal).join(', ')}]`
    : `{ ${Object.entries(value)
        .map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`}: ${literal(item)}`)
        .join(', ')} }`;
  if (text.length <= 72) return text;
  return Array.isArray(value) ? '[…]' : '{ … }';
}

/** Top-level fields of the success body, the envelope's `success` and `message` left out. */
function successFields(document: Json, op: Json): string[] {
  const status = Object.keys(op.responses as Json).find((key) => key.startsWith('2'));
  const media = status
    ? ((resolve(document, (op.responses as Json)[status]).content as Json | undefined)?.['application/json'] as
        Json | undefined)
    : undefined;
  if (!media?.schema) return [];
  const schema = resolve(document, media.schema);
  const own = (schema.allOf as Json[] | undefined)?.find((part) => !part.$ref) ?? schema;
  return [...propertyNames(document, own)].filter((name) => name !== 'success' && name !== 'message');
}

/**
 * How an example calls the operation: the function form (`getCampaign(client, params)`) or
 * a resource method (`ocs.campaigns.get(params)`), and what iterates a list operation.
 */
export interface ExampleForm {
  call(args: string[]): string;
  iterate: string;
}

const functionForm = (operation: Operation): ExampleForm => ({
  call: (args) => `${operation.id}(${['client', ...args].join(', ')})`,
  iterate: `paginate(client, ${operation.id})`,
});

/** An `@example`: a call with the document's example values, and a loop for a list. */
export function exampleLines(document: Json, operation: Operation, form = functionForm(operation)): string[] {
  const entries: string[] = [];
  const parameters = [...((operation.op.parameters as unknown[]) ?? [])].map((parameter) =>
    resolve(document, parameter),
  );
  for (const parameter of parameters) {
    if (parameter.in !== 'path' && !(parameter.in === 'query' && parameter.required)) continue;
    entries.push(`${String(parameter.name)}: ${literal(exampleValue(document, parameter))}`);
  }
  if (operation.hasBody) {
    const requestBody = resolve(document, operation.op.requestBody);
    const media = (requestBody.content as Json)['application/json'] as Json;
    const value = exampleValue(document, media) as Json | undefined;
    const schema = resolve(document, media.schema);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    if (value && typeof value === 'object') {
      const keys = Object.keys(value);
      const shown = keys.filter((key) => required.has(key));
      for (const key of shown.length ? shown : keys.slice(0, 2)) entries.push(`${key}: ${literal(value[key])}`);
    }
  }
  const args = entries.length ? [`{ ${entries.join(', ')} }`] : [];
  if (operation.idempotent) args.push(`{ idempotencyKey: 'sync-2026-11-04-fintech' }`);
  const fields = successFields(document, operation.op).slice(0, 2);
  const result = fields.length ? `{ ${fields.join(', ')}, requestId }` : 'result';
  const lines = [`const ${result} = await ${form.call(args)};`];
  if (operation.itemsKey) {
    const item = operation.itemsKey.replace(/ies$/, 'y').replace(/s$/, '');
    lines.push(`for await (const ${item} of ${form.iterate}) console.log(${item});`);
  }
  return lines;
}

function jsdoc(document: Json, operation: Operation, common: Map<string, Set<string>>): string {
  const { op } = operation;
  const lines: string[] = [];
  lines.push(...wrap(doc(String(op.summary ?? operation.id)).replace(/\.?$/, '.')));
  const description = firstParagraph(op.description);
  if (description) lines.push('', ...wrap(description));
  const scope = op['x-required-scope'];
  const facts = [
    `\`${operation.method} ${operation.path}\`.`,
    scope ? `Scope \`${String(scope)}\`.` : 'No scope needed.',
  ];
  if (operation.itemsKey) {
    facts.push(
      `A list: items under \`${operation.itemsKey}\`; iterate every page with \`paginate(client, ${operation.id})\`.`,
    );
  }
  if (operation.idempotent) {
    facts.push(
      'Sends an `Idempotency-Key` (yours in `options.idempotencyKey`, or a generated one), reused on every retry and returned as `idempotencyKey` on the result and on errors.',
    );
  }
  lines.push('', ...wrap(facts.join(' ')));
  const errors = specificErrors(operation, common);
  const shared = `the ones every operation answers (${[...common.keys()].join(', ')})`;
  lines.push('', ...wrap(errors.length ? `Errors: ${errors.join('; ')}; and ${shared}.` : `Errors: ${shared}.`));
  if (operation.successor) {
    lines.push(
      '',
      ...wrap(
        `@deprecated Use {@link ${operation.successor.id}} (\`${operation.successor.route}\`), its successor. This operation keeps working; the client logs its \`Deprecation\` header once.`,
      ),
    );
  }
  lines.push('', '@example', ...exampleLines(document, operation));
  return ['/**', ...lines.map((line) => (line ? ` * ${line}` : ' *')), ' */'].join('\n');
}

function entry(operation: Operation): string {
  const flags = (operation.hasBody ? FLAG_BODY : 0) | (operation.idempotent ? FLAG_IDEMPOTENT : 0);
  const args = [`'${operation.id}'`, `'${operation.method} ${operation.path}'`];
  const query = operation.queryNames.length ? `[${operation.queryNames.map((name) => `'${name}'`).join(', ')}]` : '0';
  if (operation.itemsKey) args.push(query, String(flags), `'${operation.itemsKey}'`);
  else if (flags) args.push(query, String(flags));
  else if (operation.queryNames.length) args.push(query);
  return `export const ${operation.id} = /* @__PURE__ */ op(${args.join(', ')});`;
}

export function generateOperationsModule(document: Record<string, unknown>): string {
  const operations = collectOperations(document);
  const lists = operations.filter((operation) => operation.itemsKey);
  const idempotent = operations.filter((operation) => operation.idempotent);
  const common = commonErrors(operations);
  return [
    `// ${operations.length} operations, one function each: \`operationName(client, params?, options?)\` resolves to`,
    '// the response body and throws an OcsApiError on an error answer. Each is one row of data',
    '// read by the shared caller in src/operation.ts; `/* @__PURE__ */` lets bundlers drop the',
    '// ones an application does not import.',
    "import { op } from '../operation.ts';",
    '',
    ...operations.map((operation) => `${jsdoc(document, operation, common)}\n${entry(operation)}\n`),
    '/**',
    ' * Every operation by operationId: the table `createOcs` binds to a client. Importing it',
    ' * brings all operations into a bundle; import the functions themselves to keep it small.',
    ' */',
    `export const operationTable = {\n${operations.map((operation) => `  ${operation.id},`).join('\n')}\n};`,
    '',
    '/** The `operationId` of every operation under `paths`. */',
    `export type OperationId =\n${operations.map((operation) => `  | '${operation.id}'`).join('\n')};`,
    '',
    '/**',
    ' * Request-body fields that have a default and may be left out. The generated component',
    ' * types require them (openapi-typescript treats a default as always present, which holds',
    ' * for responses only); the named operations make them optional again.',
    ' */',
    `export interface BodyDefaults {\n${operations
      .filter((operation) => operation.bodyDefaults.length)
      .map((operation) => `  ${operation.id}: ${operation.bodyDefaults.map((name) => `'${name}'`).join(' | ')};`)
      .join('\n')}\n}`,
    '',
    '/** The list operations, each with the key of its items: `paginate()` accepts these. */',
    `export type ListOperationId = ${lists.map((operation) => `'${operation.id}'`).join(' | ')};`,
    '',
    '/** Operations that declare an `Idempotency-Key` header: retried on POST, with one key across attempts. */',
    `export type IdempotentOperationId = ${idempotent.map((operation) => `'${operation.id}'`).join(' | ') || 'never'};`,
    '',
  ].join('\n');
}

/**
 * `packages/sdk/src/generated/retry.ts`: the 500 codes the document lists besides
 * `INTERNAL_ERROR`. Each names a state of the data (`ORG_HAS_NO_MEMBERS`: no one can own
 * the campaign) that sending the same request again cannot change, so the client never
 * retries them; a 500 `INTERNAL_ERROR`, or one without the API's body, is retried.
 */
export function generateRetryModule(document: Record<string, unknown>): string {
  const permanent = new Set<string>();
  for (const operation of collectOperations(document)) {
    for (const code of operation.errors.get('500') ?? []) if (code !== 'INTERNAL_ERROR') permanent.add(code);
  }
  return [
    '// The 500 codes that the document lists besides INTERNAL_ERROR: each names a state of the',
    '// data that a repeat of the request cannot change, so the client never retries them',
    '// (src/retry.ts).',
    `export const permanentErrorCodes: readonly string[] = [${[...permanent]
      .sort()
      .map((code) => `'${code}'`)
      .join(', ')}];`,
    '',
  ].join('\n');
}
