/** toIssues: Ajv's errors as the API's issues; a failed check always gives at least one. */
import { Ajv } from 'ajv';
import { expect, it } from 'vitest';
import { toIssues } from '../../src/http/validation.ts';

it('keeps the outermost of two unions at one place, which used to drop each other to no issue at all', () => {
  // A union of forms whose first form is itself a union, as POST /leads's body (one lead,
  // itself "email or linkedin_profile", or a batch).
  const validate = new Ajv({ allErrors: true }).compile({
    anyOf: [{ anyOf: [{ required: ['email'] }, { required: ['linkedin'] }] }, { required: ['leads'] }],
  });
  expect(validate({ foo: 1 })).toBe(false);
  const unionsAtRoot = (validate.errors ?? []).filter((e) => e.keyword === 'anyOf' && e.instancePath === '');
  expect(unionsAtRoot).toHaveLength(2);
  const issues = toIssues(validate.errors ?? [], 'body');
  expect(issues).toHaveLength(1);
  expect(issues[0]?.field).toBe('body');
});

it('makes issues only up to its limit, in the order of the errors, skipping the noise of unions', () => {
  // `verbose`, as the precompiled validators: a union's issue names its alternatives.
  const validate = new Ajv({ allErrors: true, verbose: true }).compile({
    type: 'array',
    items: { anyOf: [{ required: ['email'] }, { required: ['linkedin'] }] },
  });
  expect(validate([{}, {}, {}, {}])).toBe(false);
  expect(toIssues(validate.errors ?? [], 'body', 2).map((issue) => issue.field)).toEqual([
    'body[0].email',
    'body[1].email',
  ]);
  expect(toIssues(validate.errors ?? [], 'body')).toHaveLength(4);
});
