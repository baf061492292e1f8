/** How much one VALIDATION_ERROR may say (issue-limits.ts, decision 0005). */
import { expect, it } from 'vitest';
import { validationError } from '../../src/http/api-error.ts';
import { boundedField, maxFieldLength, maxIssues } from '../../src/http/issue-limits.ts';

const issues = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ field: `body.items[${index}]`, message: 'is invalid', type: 'type' }));

it('keeps a field up to the bound whole, and a longer one as its start and its length', () => {
  const whole = 'f'.repeat(maxFieldLength);
  expect(boundedField(whole)).toBe(whole);
  const long = `body.custom_fields.${'k'.repeat(5000)}`;
  expect(boundedField(long)).toBe(`${long.slice(0, maxFieldLength)}… (5,019 characters)`);
});

it('never cuts a field between the two halves of a surrogate pair', () => {
  const field = `${'f'.repeat(maxFieldLength - 1)}😀${'g'.repeat(10)}`;
  const bounded = boundedField(field);
  expect(bounded.startsWith(`${'f'.repeat(maxFieldLength - 1)}…`)).toBe(true);
  expect(bounded).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
});

it('lists up to maxIssues issues whole, and says how many more the message left out', () => {
  const error = validationError(issues(maxIssues));
  expect(error.details).toEqual({ errors: issues(maxIssues) });
  expect(error.message).toMatch(/; and 990 more \(details\.errors lists each\)\.$/);
});

it('lists the first maxIssues of more, marks the list as cut, and says what to do', () => {
  const error = validationError(issues(maxIssues + 1));
  expect(error.details?.errors).toEqual(issues(maxIssues));
  expect(error.details?.errors_truncated).toBe(true);
  expect(error.message).toMatch(
    /; and more \(details\.errors lists the first 1,000: fix them and send again to see the rest\)\.$/,
  );
});

it('bounds the fields it lists and names', () => {
  const field = `body.${'k'.repeat(100_000)}`;
  const error = validationError([{ field, message: 'is invalid', type: 'type' }]);
  expect(error.details?.errors?.[0]?.field).toBe(boundedField(field));
  expect(error.message.length).toBeLessThan(maxFieldLength + 100);
});
