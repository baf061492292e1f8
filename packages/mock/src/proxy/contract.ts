/**
 * The contract `ocs-mock proxy` holds a deployment to: the OpenAPI document the reference
 * server serves. Requests are matched to operations with the document's operation table
 * (literal segments before parameters: `/campaigns/sequence-templates` before
 * `/campaigns/{campaign_id}`), checked with the server's own request validator (the
 * precompiled validators), and answers checked here: a status the operation documents, the
 * headers it marks required, and the JSON body against its schema (Ajv, compiled per
 * response on first use, with the document's `$ref`s and the formats the server checks).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { openApiDocument, operationTable, RequestValidator, type OperationInfo } from '@ocs/server';
import { safeDecode } from '../core/operations.ts';

export interface Violation {
  /** The operation's id, or null when no operation has this method and path. */
  operationId: string | null;
  /** `request` or `response`: which side broke the document. */
  side: 'request' | 'response';
  message: string;
}

interface Matcher {
  operation: OperationInfo;
  pattern: RegExp;
  names: string[];
  /** Parameters in the template: fewer is more specific and is tried first. */
  parameters: number;
}

type ResponseObject = {
  headers?: Record<string, { required?: boolean; $ref?: string }>;
  content?: Record<string, unknown>;
};

const documentId = 'ocs-openapi';

export class Contract {
  private readonly matchers: Matcher[];
  private readonly requests = new RequestValidator();
  // No meta-schemas: the document's schemas are not validated themselves (the openapi
  // package lints them), and the bundle loads Ajv's meta-schema JSON as ES modules, which
  // Ajv's require() would not read as schemas.
  private readonly ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    meta: false,
    validateSchema: false,
    formats: fullFormats,
  });
  private readonly bodyValidators = new Map<string, ValidateFunction>();

  constructor() {
    this.matchers = operationTable
      .map((operation) => {
        const names: string[] = [];
        const source = operation.path
          .split('/')
          .map((segment) => {
            const parameter = /^\{(.+)\}$/.exec(segment);
            if (!parameter?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(parameter[1]);
            return '([^/]+)';
          })
          .join('/');
        return { operation, pattern: new RegExp(`^${source}/?$`), names, parameters: names.length };
      })
      .sort((a, b) => a.parameters - b.parameters);
    this.ajv.addSchema(openApiDocument, documentId);
  }

  /** The operation of `method` and a path relative to `/v1`, with its path parameters. */
  match(method: string, path: string): { operation: OperationInfo; params: Record<string, string> } | null {
    for (const { operation, pattern, names } of this.matchers) {
      if (operation.method !== method) continue;
      const found = pattern.exec(path);
      if (!found) continue;
      const params = Object.fromEntries(names.map((name, i) => [name, safeDecode(found[i + 1] ?? '')]));
      return { operation, params };
    }
    return null;
  }

  /** What in the request breaks the document (the server's own validator says it). */
  checkRequest(
    operation: OperationInfo,
    request: { params: Record<string, string>; url: URL; headers: Headers; body: unknown },
  ): Violation[] {
    try {
      this.requests.validate(operation, {
        path: request.params,
        url: request.url,
        headers: request.headers,
        body: request.body,
      });
      return [];
    } catch (error) {
      return [{ operationId: operation.operationId, side: 'request', message: (error as Error).message }];
    }
  }

  /** What in the answer breaks the document: status, required headers, JSON body. */
  checkResponse(operation: OperationInfo, answer: { status: number; headers: Headers; body: string }): Violation[] {
    const violation = (message: string): Violation => ({
      operationId: operation.operationId,
      side: 'response',
      message,
    });
    const responses =
      (resolve(this.operationObject(operation)) as { responses?: Record<string, unknown> }).responses ?? {};
    const key = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find((k) => k in responses);
    if (key === undefined) {
      return [
        violation(`status ${answer.status} is not documented (documented: ${Object.keys(responses).join(', ')})`),
      ];
    }
    const response = resolve(responses[key]) as ResponseObject;
    const found: Violation[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if ((resolve(header) as { required?: boolean }).required && !answer.headers.has(name)) {
        found.push(violation(`${answer.status}: required header ${name} is missing`));
      }
    }
    const json = response.content?.['application/json'];
    if (json === undefined) return found;
    const contentType = answer.headers.get('content-type') ?? '';
    if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
      found.push(violation(`${answer.status}: content-type is '${contentType}', the document says application/json`));
      return found;
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      found.push(violation(`${answer.status}: the body is not JSON`));
      return found;
    }
    const validate = this.bodyValidator(operation, key);
    if (validate && !validate(body)) {
      found.push(violation(`${answer.status}: body ${describe(validate.errors ?? [])}`));
    }
    return found;
  }

  private operationObject(operation: OperationInfo): unknown {
    return pointerGet(operation.pointer);
  }

  private bodyValidator(operation: OperationInfo, key: string): ValidateFunction | undefined {
    const id = `${operation.operationId} ${key}`;
    let validate = this.bodyValidators.get(id);
    if (!validate) {
      // The response may be a `$ref` to components/responses: point at the schema where it is.
      const responses = (pointerGet(operation.pointer) as { responses: Record<string, { $ref?: string }> }).responses;
      const base = responses[key]?.$ref ?? `${operation.pointer}/responses/${key}`;
      validate = this.ajv.compile({ $ref: `${documentId}${base}/content/application~1json/schema` });
      this.bodyValidators.set(id, validate);
    }
    return validate;
  }
}

/** At most three of Ajv's errors, as `/campaigns/0/name must be string`. */
function describe(errors: ErrorObject[]): string {
  const said = errors.slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  return said.join('; ') + (errors.length > 3 ? `; and ${errors.length - 3} more` : '');
}

/** A JSON pointer (`#/paths/~1campaigns/get`) in the document. */
function pointerGet(pointer: string): unknown {
  let node: unknown = openApiDocument;
  for (const part of pointer.replace(/^#\//, '').split('/')) {
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** An object of the document with its `$ref` followed (within the document). */
function resolve(node: unknown): unknown {
  let current = node;
  while (current && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    current = pointerGet((current as { $ref: string }).$ref);
  }
  return current;
}
