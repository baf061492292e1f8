/**
 * `npm run mock` (Prism over the document's static examples) answers every operation of the
 * document: a valid request built from the document's own examples gets a documented
 * success status and a body that matches that status's schema.
 */
import {
  createSchemaValidator,
  examplesOf,
  type JsonObject,
  loadBundledDocument,
  operationsOf,
  parametersOf,
  resolve,
  responsesOf,
} from '@ocs/openapi/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismMock, startPrism } from '../src/prism/start-prism.ts';

const document = loadBundledDocument();
const validator = createSchemaValidator(document);
const operations = operationsOf(document).filter((op) => op.section === 'paths');

let prism: PrismMock;
beforeAll(async () => {
  prism = await startPrism({ port: 0 });
}, 60_000);
afterAll(() => prism?.close());

function requestFor(op: (typeof operations)[number]) {
  let path = op.path;
  for (const parameter of parametersOf(document, op).filter((p) => p.in === 'path')) {
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(parameter.example)));
  }
  const headers: Record<string, string> = { Authorization: 'Bearer ocs_prism_test_key' };
  let body: string | undefined;
  if (op.operation.requestBody) {
    const media = (resolve(document, op.operation.requestBody, '').node.content as JsonObject)[
      'application/json'
    ] as JsonObject;
    body = JSON.stringify(examplesOf(document, media)[0]?.value);
    headers['Content-Type'] = 'application/json';
  }
  return { path, init: { method: op.method.toUpperCase(), headers, body } };
}

describe('Prism serves every operation', () => {
  // The specification's 50 operations and the 6 sandbox ones (`x-sandbox: true`).
  it('covers all 56 operations', () => expect(operations).toHaveLength(56));

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', async (_, op) => {
    const { path, init } = requestFor(op);
    const response = await fetch(`${prism.url}${path}`, init);
    const text = await response.text();
    const documented = responsesOf(document, op).find((r) => r.status === String(response.status));
    expect(documented, `undocumented status ${response.status}: ${text}`).toBeDefined();
    expect(response.status, text).toBeGreaterThanOrEqual(200);
    expect(response.status, text).toBeLessThan(300);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    if (!(documented?.response.content as JsonObject | undefined)?.['application/json']) return;
    const result = validator.validate(`${documented?.pointer}/content/application~1json/schema`, JSON.parse(text));
    expect(result.errors).toEqual([]);
  });
});
