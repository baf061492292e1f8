/**
 * Validates a request against its operation in the OpenAPI document: path parameters (a
 * value that does not match answers `404 NOT_FOUND`, as the specification wants for path
 * IDs), query parameters and headers (coerced from strings first; one given more than once,
 * a header on several lines included, is refused), and the JSON body. Every failing field is
 * reported at once in `details.errors[]`.
 *
 * Before any schema, every string the service reads (body values and keys at any depth, the
 * declared query parameters and headers) is checked for text that PostgreSQL cannot store:
 * U+0000 and unpaired UTF-16 surrogates. They answer `400 VALIDATION_ERROR` (`type:
 * unsupported_character`) on every store, so the memory store (the mock) answers as PGlite
 * and PostgreSQL do. So does a body number too large for a 64-bit float (`1e400`), which
 * JSON.parse reads as Infinity and JSON.stringify would then store as null.
 *
 * The schemas are compiled by `npm run generate` into src/generated/validators.ts (Ajv's
 * standalone code), so neither the server nor the mock compiles anything at start or on a
 * first request; a test fails when they drift from the document.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { validators } from '../generated/validators.ts';
import { type OperationInfo, type OperationParameter, operationTable } from '../openapi/document.ts';
import { bodyKey, parameterKey, unvalidatedHeaders, validatorSchemas } from '../openapi/validator-schemas.ts';
import type { PrecompiledValidator } from '../openapi/validator-runtime.ts';
import { uuidForm } from '../openapi/formats.ts';
import { eachItem, type FieldPath } from '../openapi/uuid-fields.ts';
import { notFound, type ValidationIssue, validationError } from './api-error.ts';
import { fieldName, maxIssues } from './issue-limits.ts';
import { meantForm } from './body-forms.ts';
import { headerValues } from './header-lines.ts';

export interface ValidatedInput {
  path: Record<string, string | number>;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

export class RequestValidator {
  /**
   * Refuses to start when a schema of the document has no precompiled validator: the
   * document changed and `npm run generate` was not run since.
   */
  constructor() {
    for (const key of validatorSchemas(operationTable).keys()) {
      if (!validators[key]) {
        throw new Error(
          `The request validators are older than the OpenAPI document (none for ${key}): run \`npm run generate\`.`,
        );
      }
    }
  }

  validate(
    operation: OperationInfo,
    raw: { path: Record<string, string>; url: URL; headers: Headers; body: unknown },
  ): ValidatedInput {
    const result: ValidatedInput = { path: {}, query: {}, headers: {}, body: raw.body };
    const { issues, schemasMustNotRead } = unstorableValues(operation, raw);
    if (schemasMustNotRead) throw validationError(issues);
    for (const parameter of operation.parameters) {
      const key = parameterKey(operation, parameter);
      if (parameter.in === 'path') {
        const value = coerce(raw.path[parameter.name] ?? '', parameter);
        if (!run(key, value).valid) {
          throw notFound(`Not found: ${parameter.name} must be ${describeExpected(parameter)}.`);
        }
        result.path[parameter.name] = (parameter.uuid ? lowerCaseUuid(value) : value) as string | number;
        continue;
      }
      // A header sent on several lines gives several values (`header-lines.ts`), as a
      // repeated query parameter does: refused, rather than read as their joined text.
      const values =
        parameter.in === 'query'
          ? raw.url.searchParams.getAll(parameter.name)
          : headerValues(raw.headers, parameter.name);
      const field = `${parameter.in}.${parameter.name}`;
      if (values.length === 0) {
        if (parameter.required) issues.push({ field, message: 'is required', type: 'required' });
        continue;
      }
      if (parameter.in === 'header' && unvalidatedHeaders.has(parameter.name.toLowerCase())) continue;
      if (values.length > 1) {
        issues.push({ field, message: 'must be given once', type: 'type' });
        continue;
      }
      const value = coerce(values[0] as string, parameter);
      const check = run(key, value);
      if (!check.valid) append(issues, toIssues(check.errors, field));
      else if (parameter.in === 'query') result.query[parameter.name] = parameter.uuid ? lowerCaseUuid(value) : value;
      else result.headers[parameter.name] = value as string;
    }
    if (operation.hasBody) {
      if (raw.body === undefined) {
        if (operation.bodyRequired) issues.push({ field: 'body', message: 'is required', type: 'required' });
      } else {
        const check = run(bodyKey(operation), raw.body);
        // A body with several forms: the issues of the form it is meant for, not "matches none".
        const form = check.valid ? undefined : meantForm(operation.bodyForms, raw.body);
        // One more than the answer lists, so that it can say there are more (issue-limits.ts).
        const room = maxIssues + 1 - issues.length;
        if (form) append(issues, toIssues(run(form.pointer, raw.body).errors, 'body', room));
        else if (!check.valid) append(issues, toIssues(check.errors, 'body', room));
      }
    }
    if (issues.length > 0) throw validationError(issues);
    for (const path of operation.uuidBodyFields) lowerCaseUuidsAt(result.body, path, 0);
    return result;
  }

  /** The path parameters that match their schemas (for headers, which take validated values only). */
  validPathParameters(operation: OperationInfo, path: Record<string, string>): Record<string, string> {
    const valid: Record<string, string> = {};
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'path') continue;
      const value = path[parameter.name];
      if (value !== undefined && run(parameterKey(operation, parameter), coerce(value, parameter)).valid) {
        valid[parameter.name] = value;
      }
    }
    return valid;
  }
}

/**
 * A UUID as the service writes it, in lower case (uuid-fields.ts says why); any other value
 * as it is (a union's other branch, a null).
 */
function lowerCaseUuid(value: unknown): unknown {
  return typeof value === 'string' && uuidForm.test(value) ? value.toLowerCase() : value;
}

/** Lower-cases the UUIDs of a valid body found along `path` (from `at`), in place. */
function lowerCaseUuidsAt(node: unknown, path: FieldPath, at: number): void {
  if (node === null || typeof node !== 'object') return;
  const step = path[at] as string;
  const last = at === path.length - 1;
  if (step === eachItem) {
    if (!Array.isArray(node)) return;
    for (let index = 0; index < node.length; index++) {
      if (last) node[index] = lowerCaseUuid(node[index]);
      else lowerCaseUuidsAt(node[index], path, at + 1);
    }
    return;
  }
  if (Array.isArray(node) || !Object.hasOwn(node, step)) return;
  const record = node as Record<string, unknown>;
  if (last) record[step] = lowerCaseUuid(record[step]);
  else lowerCaseUuidsAt(record[step], path, at + 1);
}

/** Validates `value` with the precompiled validator of `key` (validator-schemas.ts). */
function run(key: string, value: unknown): { valid: boolean; errors: ErrorObject[] } {
  const validate = validators[key] as PrecompiledValidator;
  const valid = validate(value);
  return { valid, errors: valid ? [] : [...(validate.errors ?? [])] };
}

/** U+0000, a high surrogate not followed by a low one, or a low one not after a high one. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for.
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorableMessage = 'must not contain U+0000 or an unpaired surrogate';
const overflowMessage = 'is out of range: a number must fit a 64-bit float (about ±1.8e308)';

/**
 * How deep a body may nest objects and arrays. No field of the API nests near this deep (a
 * sequence's branches stop at a few levels); past it, code that walks a value recursively
 * (JSON.stringify when storing it, erasure's scrub of a deal's metadata) would overflow the
 * stack, so such a body could be stored and then never erased.
 */
export const maxBodyDepth = 64;

/** What the pass before the schemas found. */
export interface UnstorableValues {
  issues: ValidationIssue[];
  /**
   * The body holds what no schema may be run on, so the request is refused with these issues
   * alone: a value nested too deep (a schema would walk it recursively), or a number that
   * overflowed to an infinity (a schema would add its own reading of it, a `minimum` or
   * `maximum` issue beside the overflow's). Set where each is found, never read back from
   * the issues' text.
   */
  schemasMustNotRead: boolean;
}

/**
 * Issues for every string of the request that stored text cannot hold (path IDs are left to
 * their schemas: a value that is not an ID answers `404`, as for any other bad path ID), and
 * for every body number that overflowed to an infinity when the JSON was parsed.
 */
export function unstorableValues(
  operation: OperationInfo,
  raw: { url: URL; headers: Headers; body: unknown },
): UnstorableValues {
  const issues: ValidationIssue[] = [];
  let schemasMustNotRead = false;
  const flag = (field: string, message = unstorableMessage) =>
    issues.push({ field, message, type: 'unsupported_character' });
  // Declared parameters only: any other query parameter or header is never read.
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path' || unvalidatedHeaders.has(parameter.name.toLowerCase())) continue;
    const values =
      parameter.in === 'query' ? raw.url.searchParams.getAll(parameter.name) : [raw.headers.get(parameter.name) ?? ''];
    if (values.some((value) => unstorable.test(value))) flag(`${parameter.in}.${parameter.name}`);
  }
  // Depth first, in document order, without recursion: a 1 MB body may nest very deep. A
  // value's field name (`body.leads[3].email`) is spelled out only when it is flagged: an
  // import's body holds tens of thousands of values, nearly always fine.
  const pending: PendingValue[] = [{ value: raw.body, parent: undefined, key: 'body', depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    // Enough to answer with (issue-limits.ts): the body is refused whatever else it holds.
    if (issues.length > maxIssues) {
      schemasMustNotRead = true;
      break;
    }
    const { value, depth } = next;
    if (typeof value === 'string') {
      if (unstorable.test(value)) flag(fieldOf(next));
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        schemasMustNotRead = true;
        issues.push({
          field: fieldOf(next),
          message: overflowMessage,
          type: value > 0 ? 'maximum' : 'minimum',
        });
      }
    } else if (value !== null && typeof value === 'object' && depth >= maxBodyDepth) {
      schemasMustNotRead = true;
      issues.push({
        field: fieldOf(next),
        message: `nests deeper than ${maxBodyDepth} levels of objects and arrays`,
        type: 'json_too_deep',
      });
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        pending.push({ value: value[index], parent: next, key: index, depth: depth + 1 });
      }
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      if (keys.some((key) => unstorable.test(key))) {
        flag(fieldOf(next), 'must not have a key that contains U+0000 or an unpaired surrogate');
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (!unstorable.test(key)) {
          pending.push({ value: (value as Record<string, unknown>)[key], parent: next, key, depth: depth + 1 });
        }
      }
    }
  }
  return { issues, schemasMustNotRead };
}

/** A value of the body still to check, with where it sits. */
interface PendingValue {
  value: unknown;
  parent: PendingValue | undefined;
  /** Its key in its parent (an index in an array), or `body` for the body itself. */
  key: string | number;
  depth: number;
}

/** The field name of a value: `body.leads[3].email` (bounded: issue-limits.ts). */
function fieldOf(at: PendingValue): string {
  const keys: Array<string | number> = [];
  for (let step: PendingValue | undefined = at; step !== undefined; step = step.parent) keys.push(step.key);
  const pieces: string[] = [];
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i] as string | number;
    if (typeof key === 'number') pieces.push('[', String(key), ']');
    else if (pieces.length === 0) pieces.push(key);
    else pieces.push('.', key);
  }
  return fieldName(pieces);
}

/**
 * Query and header values arrive as strings; give them the type their schema declares.
 * Integers beyond 2^53 never reach the database as a rounded number: past a bound of their
 * schema they are that number, refused as out of range (`must be <= 9007199254740991`, as an
 * attack found `must be integer` misleading for an integer); otherwise they stay strings and
 * fail as the wrong type.
 */
function coerce(value: string, parameter: OperationParameter): unknown {
  const types = ([] as unknown[]).concat(parameter.schema.type ?? []);
  if (types.includes('integer') && /^-?\d+$/.test(value)) {
    const number = Number(value);
    const { maximum, minimum } = parameter.schema as { maximum?: number; minimum?: number };
    if (Number.isSafeInteger(number) || number > (maximum ?? Infinity) || number < (minimum ?? -Infinity))
      return number;
  }
  if (types.includes('number') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  if (types.includes('null') && value === 'null') return null;
  return value;
}

function describeExpected(parameter: OperationParameter): string {
  if (parameter.schema.format === 'uuid') return 'a UUID';
  if (parameter.schema.type === 'integer') return 'an integer';
  return 'valid';
}

const issueTypes: Record<string, string> = {
  required: 'required',
  type: 'type',
  format: 'format',
  enum: 'enum',
  const: 'enum',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  minLength: 'min_length',
  maxLength: 'max_length',
  minItems: 'min_items',
  maxItems: 'max_items',
  uniqueItems: 'unique_items',
  minProperties: 'min_properties',
  maxProperties: 'max_properties',
  pattern: 'pattern',
  additionalProperties: 'additional_properties',
  anyOf: 'any_of',
  oneOf: 'one_of',
};

/**
 * Turns Ajv's errors into the API's issues, the first `limit` of them. For `oneOf`/`anyOf`
 * failures, the branch errors are noise unless one branch is clearly meant (a nullable value
 * that is not null): then that branch's errors are reported, otherwise one issue for the
 * union. Ajv's errors are cheap next to the issues made of them (a body of 1 MB fails with
 * 600,000: 0.1 s in Ajv, 1.9 s more to make their issues), so they are made only up to the limit.
 */
export function toIssues(errors: ErrorObject[], root: string, limit = Number.POSITIVE_INFINITY): ValidationIssue[] {
  const unions = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  // Each union by where it sits, so that an error finds the unions above it by walking up its
  // own path: a batch of n items fails with n unions and a few errors each, and comparing
  // every error with every union took minutes for a body of 1 MB.
  const unionsAt = new Map<string, Array<{ union: ErrorObject; preferred: number | undefined }>>();
  for (const union of unions) {
    const here = unionsAt.get(union.instancePath) ?? [];
    here.push({ union, preferred: preferredBranch(union) });
    unionsAt.set(union.instancePath, here);
  }
  const dropped = (error: ErrorObject): boolean => {
    for (let path: string | undefined = error.instancePath; path !== undefined; path = parentPath(path)) {
      for (const { union, preferred } of unionsAt.get(path) ?? []) {
        if (preferred !== undefined) {
          // A nullable value that is not null: report what is wrong with the value itself.
          if (error === union) return true;
          const inOtherBranch =
            error.schemaPath.startsWith(`${union.schemaPath}/`) &&
            !error.schemaPath.startsWith(`${union.schemaPath}/${preferred}/`);
          if (inOtherBranch) return true;
        } else if (error !== union) {
          // Otherwise one issue for the union; its branches' errors are noise.
          return true;
        }
      }
    }
    return false;
  };
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    if (issues.length >= limit) break;
    if (dropped(error)) continue;
    const issue = toIssue(error, root);
    const key = `${issue.field}|${issue.type}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  // Two unions at one place (a union of forms whose branch is itself a union) would drop each
  // other: keep the outermost, which Ajv reports after its branches. A failed check never
  // comes out without an issue, or the request would reach its handler unvalidated.
  const outermost = unions.at(-1) ?? errors.at(-1);
  if (issues.length === 0 && outermost) issues.push(toIssue(outermost, root));
  return issues;
}

/**
 * `push(...more)` passes each item as an argument: a body of 1 MB can fail with 250,000
 * issues, past the call stack's limit ("Maximum call stack size exceeded", answered 500).
 */
function append(issues: ValidationIssue[], more: ValidationIssue[]): void {
  for (const issue of more) issues.push(issue);
}

/** The JSON Pointer one level up (`/leads/3` of `/leads/3/email`); none above the root (""). */
function parentPath(path: string): string | undefined {
  return path === '' ? undefined : path.slice(0, path.lastIndexOf('/'));
}

/** The index of the one union branch that is not `type: 'null'`, when the value is not null. */
function preferredBranch(union: ErrorObject): number | undefined {
  const branches = unionBranches(union) as Array<Record<string, unknown>>;
  const nonNull = branches.map((branch, index) => ({ branch, index })).filter(({ branch }) => branch.type !== 'null');
  if (nonNull.length !== 1 || branches.length < 2 || (union.data ?? null) === null) return undefined;
  return nonNull[0]?.index;
}

function toIssue(error: ErrorObject, root: string): ValidationIssue {
  // The pieces of the failing value's field (issue-limits.ts builds it bounded), then a name below it.
  const pieces = [root];
  for (const segment of error.instancePath.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(key)) pieces.push('[', key, ']');
    else pieces.push('.', key);
  }
  const below = (name: string) => fieldName([...pieces, '.', name]);
  const params = error.params as Record<string, unknown>;
  const alternatives = requiredAlternatives(error);
  if (alternatives) {
    // `anyOf: [{required: [email]}, {required: [linkedin_profile]}]`: one of these fields is needed.
    return {
      field: below(alternatives[0] as string),
      message: `${alternatives.join(' or ')} is required`,
      type: 'required',
    };
  }
  if (error.keyword === 'required') {
    return { field: below(String(params.missingProperty)), message: 'is required', type: 'required' };
  }
  if (error.keyword === 'additionalProperties') {
    return {
      field: below(String(params.additionalProperty)),
      message: 'is not a known field',
      type: 'additional_properties',
    };
  }
  const field = fieldName(pieces);
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    return { field, message: `must be one of ${params.allowedValues.map(String).join(', ')}`, type: 'enum' };
  }
  return { field, message: error.message ?? 'is invalid', type: issueTypes[error.keyword] ?? error.keyword };
}

/** The field names of a union whose every branch requires one field, in branch order. */
function requiredAlternatives(error: ErrorObject): string[] | undefined {
  if (error.keyword !== 'anyOf' && error.keyword !== 'oneOf') return undefined;
  const branches = unionBranches(error);
  const names = branches.map((branch) =>
    Array.isArray(branch.required) && branch.required.length === 1 ? String(branch.required[0]) : undefined,
  );
  return names.length > 0 && names.every((name) => name !== undefined) ? (names as string[]) : undefined;
}

/** A union's branches (`verbose` errors carry the failing schema). */
function unionBranches(error: ErrorObject): Array<{ required?: unknown }> {
  return Array.isArray(error.schema) ? (error.schema as Array<{ required?: unknown }>) : [];
}
