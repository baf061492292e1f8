/**
 * Every example in the document validates against its schema, every operation has an
 * example for its success answers, its request body and each error code it names, and the
 * examples agree with one another on IDs and names.
 */
import { describe, expect, it } from 'vitest';
import {
  examplesOf,
  type Json,
  type JsonObject,
  loadBundledDocument,
  operationsOf,
  parametersOf,
  resolve,
  responsesOf,
} from '../support/document.ts';
import { createSchemaValidator } from '../support/schema-validator.ts';
import { fixtureIds } from './fixture.ts';

const document = loadBundledDocument();
const validator = createSchemaValidator(document);
const operations = operationsOf(document);

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: Json;
}

/** Every example of the document, with the pointer of the schema it must satisfy. */
function collectExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const addMedia = (where: string, mediaPointer: string, media: JsonObject) => {
    for (const { name, value } of examplesOf(document, media)) {
      cases.push({ where: `${where} example "${name}"`, schemaPointer: `${mediaPointer}/schema`, value });
    }
  };
  for (const op of operations) {
    const label = `${op.method.toUpperCase()} ${op.path}`;
    const body = op.operation.requestBody
      ? resolve(document, op.operation.requestBody, `${op.pointer}/requestBody`)
      : undefined;
    for (const [type, media] of Object.entries((body?.node.content as JsonObject) ?? {})) {
      addMedia(`${label} request body`, `${body?.pointer}/content/${type.replace('/', '~1')}`, media as JsonObject);
    }
    for (const { status, pointer, response } of responsesOf(document, op)) {
      for (const [type, media] of Object.entries((response.content as JsonObject) ?? {})) {
        addMedia(`${label} ${status}`, `${pointer}/content/${type.replace('/', '~1')}`, media as JsonObject);
      }
    }
  }
  const parameters = (document.components as JsonObject).parameters as JsonObject;
  for (const [name, parameter] of Object.entries(parameters ?? {})) {
    addMedia(`parameter ${name}`, `#/components/parameters/${name}`, parameter as JsonObject);
  }
  return cases;
}

const cases = collectExamples();

describe('examples', () => {
  it('are many (one per success, request body, error code and parameter)', () => {
    expect(cases.length).toBeGreaterThan(250);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s validates against its schema', (_where, example) => {
    const result = validator.validate(example.schemaPointer, example.value);
    expect(result.errors).toEqual([]);
  });

  it('exist for every operation: success answers and request bodies', () => {
    const missing: string[] = [];
    for (const op of operations) {
      const label = `${op.method.toUpperCase()} ${op.path}`;
      if (op.operation.requestBody) {
        const body = resolve(document, op.operation.requestBody, '').node;
        const media = (body.content as JsonObject)['application/json'] as JsonObject;
        if (examplesOf(document, media).length === 0) missing.push(`${label} request body`);
      }
      for (const { status, response } of responsesOf(document, op)) {
        const media = (response.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
        if (status.startsWith('2') && media && examplesOf(document, media).length === 0) {
          missing.push(`${label} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('exist for each error code an operation names', () => {
    const missing: string[] = [];
    for (const op of operations.filter((o) => o.section === 'paths')) {
      for (const { status, response } of responsesOf(document, op)) {
        const media = (response.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
        if (!media) continue;
        const parts = ((media.schema as JsonObject).allOf as JsonObject[] | undefined) ?? [];
        const codes = parts.flatMap((p) => ((p.properties as JsonObject)?.error as JsonObject)?.enum ?? []) as string[];
        const exampleCodes = new Set(examplesOf(document, media).map((e) => (e.value as JsonObject).error));
        for (const code of codes) {
          if (!exampleCodes.has(code)) missing.push(`${op.method.toUpperCase()} ${op.path} ${status} ${code}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('use only the IDs of the example fixture', () => {
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
    const strangers = new Set<string>();
    for (const example of cases) {
      for (const id of JSON.stringify(example.value).match(uuid) ?? []) {
        if (!(id in fixtureIds)) strangers.add(`${id} in ${example.where}`);
      }
    }
    expect([...strangers]).toEqual([]);
  });

  it('give each ID one name, one first name and one email everywhere', () => {
    const seen = new Map<string, string>();
    const conflicts: string[] = [];
    const visit = (node: Json, where: string) => {
      if (Array.isArray(node)) {
        for (const item of node) visit(item, where);
        return;
      }
      if (!node || typeof node !== 'object') return;
      const id = node.id ?? node.webhook_id;
      if (typeof id === 'string') {
        for (const field of ['name', 'first_name', 'last_name', 'email', 'field_name', 'webhook_url']) {
          const value = node[field];
          if (typeof value !== 'string') continue;
          const previous = seen.get(`${id}.${field}`);
          if (previous !== undefined && previous !== value) {
            conflicts.push(`${id}.${field}: "${previous}" vs "${value}" (${where})`);
          }
          seen.set(`${id}.${field}`, value);
        }
      }
      for (const child of Object.values(node)) visit(child, where);
    };
    // Updates change names on purpose; every other example must agree with the fixture.
    for (const example of cases.filter((c) => !c.where.startsWith('PATCH'))) visit(example.value, example.where);
    expect(conflicts).toEqual([]);
  });
});

describe('parameters', () => {
  it('path IDs are UUIDs (step_id excepted) and every path parameter has an example', () => {
    for (const op of operations.filter((o) => o.section === 'paths')) {
      for (const parameter of parametersOf(document, op).filter((p) => p.in === 'path')) {
        const schema = parameter.schema as JsonObject;
        if (parameter.name === 'step_id') expect(schema.type).toBe('integer');
        else expect(schema.format, `${op.path} ${parameter.name}`).toBe('uuid');
        expect(parameter.example ?? parameter.examples, `${op.path} ${parameter.name}`).toBeDefined();
      }
    }
  });
});
