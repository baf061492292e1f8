/**
 * openapi-typescript `transform` hook: a string with `x-extensible-enum` becomes
 * `'known' | 'values' | (string & {})` instead of `string`, so editors offer the documented
 * values while a value the API adds later still type-checks (the generated zod schemas
 * type these fields the same way).
 */
import ts from 'typescript';
import { NULL, STRING, type SchemaObject, tsIntersection, tsLiteral, tsUnion } from 'openapi-typescript';

export function extensibleEnumType(schema: SchemaObject): ts.TypeNode | undefined {
  const known = (schema as Record<string, unknown>)['x-extensible-enum'];
  if (!Array.isArray(known)) return undefined;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.some((type) => type !== 'string' && type !== 'null')) {
    throw new Error(`x-extensible-enum is only supported on strings (got type ${JSON.stringify(schema.type)})`);
  }
  const anyOtherString = tsIntersection([STRING, ts.factory.createTypeLiteralNode([])]);
  const members = [...known.map((value) => tsLiteral(value)), anyOtherString];
  return tsUnion(types.includes('null') ? [...members, NULL] : members);
}
