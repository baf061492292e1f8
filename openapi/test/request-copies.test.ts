/**
 * A request's sequence schemas (`SequenceInput`, `SequenceStepInput`, `ConditionalBranchesInput`)
 * are hand-kept copies of the stored and answered ones (`Sequence`, `SequenceStep`,
 * `ConditionalBranches`) that refuse unknown keys (decision 0005, "Unknown keys in a
 * sequence"). Nothing else ties them: a field added to one and not the other would be refused
 * in requests, or answered undocumented. So each pair names the same fields, with the same
 * constraints, referring to each other's copy.
 */
import { expect, it } from 'vitest';
import { loadBundledDocument } from '../support/document.ts';

type Schema = Record<string, unknown>;
const schemas = (loadBundledDocument() as { components: { schemas: Record<string, Schema> } }).components.schemas;

const pairs = [
  ['SequenceInput', 'Sequence'],
  ['SequenceStepInput', 'SequenceStep'],
  ['ConditionalBranchesInput', 'ConditionalBranches'],
] as const;
const inputNames = new Map<string, string>(pairs.map(([input, stored]) => [`#/components/schemas/${stored}`, input]));

/** A schema with its descriptions left out and its `$ref`s to a stored schema read as to its request copy. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  const out: Schema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'description' || key === 'examples' || key === 'example') continue;
    out[key] =
      key === '$ref' && typeof inner === 'string' && inputNames.has(inner)
        ? `#/components/schemas/${inputNames.get(inner)}`
        : comparable(inner);
  }
  return out;
}

it.each(pairs)('%s is %s with no other key allowed', (input, stored) => {
  const request = schemas[input];
  const answered = schemas[stored];
  expect(request, `${input} is in the document`).toBeDefined();
  expect(request?.additionalProperties).toBe(false);
  const rest = comparable(request) as Schema;
  delete rest.additionalProperties;
  expect(rest).toEqual(comparable(answered));
});
