/**
 * The generated zod schemas (`@ocs/sdk/zod`) against the document: every example passes, and
 * zod agrees with Ajv (the document's JSON Schema validator) on thousands of mutated
 * examples: a field removed, set to null or to the wrong type, out of range, too long, an
 * unknown enum value, an unknown key, a duplicated array item...
 */
import {
  createSchemaValidator,
  examplesOf,
  type Json,
  type JsonObject,
  loadBundledDocument,
  operationsOf,
  resolve,
  responsesOf,
} from '@ocs/openapi/support';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import * as generated from '../src/zod.ts';
import {
  Campaign,
  CampaignInput,
  ProspectResponseEvent,
  requestBodySchemas,
  responseSchemas,
  schemas,
  Sequence,
  successResponseSchemas,
} from '../src/zod.ts';
import { exampleEvent } from './support/event.ts';

const document = loadBundledDocument();
const validator = createSchemaValidator(document);

interface BodyCase {
  label: string;
  pointer: string;
  schema: ZodType | undefined;
  examples: Array<{ name: string; value: Json }>;
}

/** Every JSON body of the document (requests and responses) with its zod schema. */
function bodyCases(): BodyCase[] {
  const cases: BodyCase[] = [];
  const bodies = requestBodySchemas as Record<string, ZodType>;
  const responses = responseSchemas as Record<string, Record<string, ZodType>>;
  for (const op of operationsOf(document)) {
    const operationId = op.operation.operationId as string;
    if (op.operation.requestBody) {
      const { node, pointer } = resolve(document, op.operation.requestBody, `${op.pointer}/requestBody`);
      const media = (node.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
      if (media) {
        cases.push({
          label: `${operationId} request body`,
          pointer: `${pointer}/content/application~1json/schema`,
          schema: bodies[operationId],
          examples: examplesOf(document, media),
        });
      }
    }
    for (const { status, pointer, response } of responsesOf(document, op)) {
      const media = (response.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
      if (!media) continue;
      cases.push({
        label: `${operationId} ${status}`,
        pointer: `${pointer}/content/application~1json/schema`,
        schema: responses[operationId]?.[status],
        examples: examplesOf(document, media),
      });
    }
  }
  return cases;
}

const cases = bodyCases();
const examples = cases.flatMap((c) => c.examples.map((e) => ({ ...c, example: e })));

describe('generated zod schemas', () => {
  it('exist for every JSON body of every operation, and for every component', () => {
    expect(cases.length).toBeGreaterThan(300);
    expect(cases.filter((c) => !c.schema).map((c) => c.label)).toEqual([]);
    const componentNames = Object.keys((document.components as JsonObject).schemas as JsonObject);
    expect(Object.keys(schemas).sort()).toEqual([...componentNames].sort());
    for (const name of componentNames) expect(generated[name as keyof typeof generated], name).toBeDefined();
  });

  it('offer the success body of each operation in the shape createClient({ validate }) takes', () => {
    const success = successResponseSchemas as Record<string, ZodType>;
    const expected = cases.filter((c) => / 2\d\d$/.test(c.label)).map((c) => c.label.split(' ')[0] as string);
    expect(Object.keys(success).sort()).toEqual([...new Set(expected)].sort());
    for (const c of cases.filter((c) => / 2\d\d$/.test(c.label))) {
      const schema = success[c.label.split(' ')[0] as string] as ZodType;
      for (const example of c.examples) expect(schema.safeParse(example.value).success, c.label).toBe(true);
    }
  });

  it.each(examples.map((e) => [`${e.label} example "${e.example.name}"`, e] as const))(
    '%s passes',
    (_label, { schema, example }) => {
      const result = (schema as ZodType).safeParse(example.value);
      expect(result.error?.issues ?? []).toEqual([]);
    },
  );

  it('agree with Ajv on mutated examples', () => {
    const disagreements: string[] = [];
    let accepted = 0;
    let rejected = 0;
    // An example shared by two operations (a deprecated alias) with the same schema is checked once.
    const seen = new Map<ZodType, Set<string>>();
    for (const { label, pointer, schema, example } of examples) {
      const done = seen.get(schema as ZodType) ?? new Set<string>();
      seen.set(schema as ZodType, done);
      if (done.has(JSON.stringify(example.value))) continue;
      done.add(JSON.stringify(example.value));
      forEachMutation(example.value, (description, value) => {
        const ajv = validator.validate(pointer, value).valid;
        const zod = (schema as ZodType).safeParse(value).success;
        if (ajv) accepted += 1;
        else rejected += 1;
        if (ajv !== zod) {
          disagreements.push(
            `${label} "${example.name}" ${description}: Ajv ${ajv ? 'accepts' : 'rejects'}, zod ${zod ? 'accepts' : 'rejects'}`,
          );
        }
      });
    }
    expect(disagreements.slice(0, 20)).toEqual([]);
    // The comparison is not vacuous: many mutations pass and many fail.
    expect(accepted).toBeGreaterThan(2_000);
    expect(rejected).toBeGreaterThan(2_000);
  }, 120_000);
});

describe('forward compatibility', () => {
  it('keeps unknown fields of loose objects', () => {
    const event = { ...exampleEvent(), added_later: { x: 1 }, lead: { ...exampleEvent().lead, score: 7 } };
    const parsed = ProspectResponseEvent.parse(event);
    expect(parsed).toEqual(event);
    expect(parsed.added_later).toEqual({ x: 1 });
  });

  it('accepts values beyond the known ones of x-extensible-enum fields', () => {
    const event = exampleEvent();
    event.ai_response = { ...event.ai_response, conversation_status: 'closed_rescheduled', sentiment: 'mixed' };
    event.conversation_owner = 'another_responder';
    expect(ProspectResponseEvent.parse(event).ai_response.conversation_status).toBe('closed_rescheduled');
  });

  it('fills in documented defaults for absent optional fields, as the document types promise', () => {
    const campaign = {
      id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14',
      name: 'Q4 Founders Outreach',
      is_active: true,
      created_at: '2026-10-05T09:00:00+00:00',
      updated_at: '2026-10-05T09:00:00+00:00',
    };
    expect(Campaign.parse(campaign).description).toBe('');
    expect(Campaign.parse({ ...campaign, description: null }).description).toBeNull();
  });

  it('still rejects values outside closed enums', () => {
    expect(ProspectResponseEvent.safeParse({ ...exampleEvent(), channel: 'fax' }).success).toBe(false);
  });

  it('refuses unknown keys where the document says additionalProperties: false', () => {
    expect(CampaignInput.safeParse({ name: 'Fintech CFOs' }).success).toBe(true);
    const result = CampaignInput.safeParse({ name: 'Fintech CFOs', nmae: 'typo' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('validates recursive sequences at any depth (z.lazy)', () => {
    const step = (id: number, extra: object = {}) => ({ id, type: 'view_profile', ...extra });
    const nested = {
      variation_a: [
        step(1, { type: 'linkedin_connection' }),
        step(2, {
          type: 'conditional',
          branches: { yes: [step(3, { type: 'conditional', branches: { yes: [step(4)], no: [] } })], no: [step(5)] },
        }),
      ],
    };
    expect(Sequence.safeParse(nested).success).toBe(true);
    const broken = structuredClone(nested) as {
      variation_a: Array<{ branches?: { yes: Array<{ branches?: { yes: object[] } }> } }>;
    };
    broken.variation_a[1]?.branches?.yes[0]?.branches?.yes.push({ type: 'email' });
    const result = Sequence.safeParse(broken);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['variation_a', 1, 'branches', 'yes', 0, 'branches', 'yes', 1, 'id']);
  });
});

const replacements: Array<[string, Json]> = [
  ['null', null],
  ['0', 0],
  ['-1', -1],
  ['1.5', 1.5],
  ['101', 101],
  ['1e9', 1e9],
  ['true', true],
  ['""', ''],
  ['"not-a-known-value"', 'not-a-known-value'],
  ['a 2,001-character string', 'x'.repeat(2001)],
  ['[]', []],
  ['{}', {}],
];

/**
 * Schema-agnostic mutations of an example: each node (the root, every property and every
 * of the first two items of each array) replaced by values of every JSON type and some boundary values, each property
 * removed, an unknown key added to each object, and each array emptied or given a duplicate.
 * Each mutation is applied in place to a copy, handed to `check`, then undone (neither
 * validator changes its input).
 */
function forEachMutation(root: Json, check: (description: string, value: Json) => void): void {
  const holder: { root: Json } = { root: structuredClone(root) };
  const snapshot = (description: string) => check(description, holder.root);

  const visit = (parent: Record<string, Json> | Json[], key: string | number, path: string) => {
    const container = parent as Record<string | number, Json>;
    const original = container[key] as Json;
    for (const [name, replacement] of replacements) {
      container[key] = structuredClone(replacement);
      snapshot(`${path} = ${name}`);
    }
    container[key] = original;
    if (!Array.isArray(parent)) {
      Reflect.deleteProperty(container, key);
      snapshot(`${path} removed`);
      container[key] = original;
    }
    if (Array.isArray(original)) {
      if (original.length > 0) {
        container[key] = [...original, structuredClone(original[0] as Json)];
        snapshot(`${path} with its first item repeated`);
        container[key] = [];
        snapshot(`${path} emptied`);
        container[key] = original;
      }
      // Items share one schema: the first two stand for the rest (and keep the test fast).
      original.slice(0, 2).forEach((_item, index) => visit(original, index, `${path}[${index}]`));
    } else if (original !== null && typeof original === 'object') {
      const object = original as Record<string, Json>;
      object.unknown_key_added_by_test = 1;
      snapshot(`${path} with an unknown key`);
      delete object.unknown_key_added_by_test;
      for (const child of Object.keys(object)) visit(object, child, `${path}.${child}`);
    }
  };
  visit(holder as unknown as Record<string, Json>, 'root', '$');
}
