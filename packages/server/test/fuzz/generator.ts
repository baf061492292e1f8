/**
 * Valid requests from the document: for an operation, path parameters (real resources),
 * query and header parameters and a body generated from their schemas by fast-check. ID
 * fields of bodies and queries (`lead_id`, `stage_id`, `account_ids`...) name real
 * resources most of the time, so that requests get past the lookups into the handlers.
 */
import fc from 'fast-check';
import { Ref, type ResourceKind } from './model.ts';
import { document, type FuzzOperation } from './operations.ts';
import { type Schema, schemaArbitrary } from './schema-arbitrary.ts';

/** Which pool a parameter or property of this name draws from. */
export const resourceOfName: Record<string, ResourceKind> = {
  campaign_id: 'campaign',
  lead_id: 'lead',
  webhook_id: 'webhook',
  field_id: 'ai_field',
  deal_id: 'deal',
  pipeline_id: 'pipeline',
  stage_id: 'stage',
  owner_id: 'member',
  account_id: 'account',
  step_id: 'step',
};

export const refArbitrary = (kind: ResourceKind) => fc.nat({ max: 1000 }).map((index) => new Ref(kind, index));

/** A real resource most of the time, otherwise what the schema allows (nonexistent IDs, null). */
function hint(name: string, schema: Schema): fc.Arbitrary<unknown> | undefined {
  const kind = resourceOfName[name];
  if (kind) {
    return fc.oneof(
      { weight: 5, arbitrary: refArbitrary(kind) },
      { weight: 1, arbitrary: schemaArbitrary(document, schema) },
    );
  }
  if (name === 'account_ids') {
    return fc.oneof(
      {
        weight: 5,
        arbitrary: fc.uniqueArray(refArbitrary('account'), {
          minLength: 1,
          maxLength: 3,
          selector: (r) => r.index % 4,
        }),
      },
      { weight: 1, arbitrary: schemaArbitrary(document, schema) },
    );
  }
  return undefined;
}

export interface ValidParts {
  path: Record<string, unknown>;
  query: Array<[string, unknown]>;
  headers: Record<string, string | null>;
  body: unknown;
}

const cache = new Map<string, fc.Arbitrary<ValidParts>>();

export function validParts(op: FuzzOperation): fc.Arbitrary<ValidParts> {
  const cached = cache.get(op.operationId);
  if (cached) return cached;
  const path: Record<string, fc.Arbitrary<unknown>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  const headers: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of op.parameters) {
    const kind = resourceOfName[parameter.name];
    if (parameter.in === 'path') {
      path[parameter.name] = kind ? refArbitrary(kind) : schemaArbitrary(document, parameter.schema);
    } else if (parameter.in === 'query') {
      query[parameter.name] = hint(parameter.name, parameter.schema) ?? schemaArbitrary(document, parameter.schema);
    } else {
      headers[parameter.name] = schemaArbitrary(document, parameter.schema, { unit: 'grapheme-ascii' });
    }
  }
  const required = op.parameters.filter((p) => p.required && p.in !== 'path').map((p) => p.name);
  const body = op.body
    ? op.body.required
      ? schemaArbitrary(document, op.body.schema, { hint })
      : fc.option(schemaArbitrary(document, op.body.schema, { hint }), { nil: undefined, freq: 4 })
    : fc.constant(undefined);
  const arbitrary = fc
    .record({
      path: fc.record(path),
      query: fc.record(query, { requiredKeys: required.filter((name) => name in query) }),
      headers: fc.record(headers, { requiredKeys: required.filter((name) => name in headers) }),
      body,
    })
    .map(({ path, query, headers, body }) => ({
      path,
      query: Object.entries(query),
      headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)])),
      body,
    }));
  cache.set(op.operationId, arbitrary);
  return arbitrary;
}
