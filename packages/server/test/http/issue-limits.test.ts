/** How much one VALIDATION_ERROR may say (issue-limits.ts, decision 0005). */
import { expect, it } from 'vitest';
import { validationError } from '../../src/http/api-error.ts';
import { boundedField, fieldName, maxFieldBytes, maxIssues } from '../../src/http/issue-limits.ts';

const issues = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ field: `body.items[${index}]`, message: 'is invalid', type: 'type' }));

/** The bytes a string takes inside the answer's JSON text. */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

it('keeps a field that fits whole, and a longer one as its start and its length', () => {
  const whole = 'f'.repeat(maxFieldBytes);
  expect(fieldName([whole])).toBe(whole);
  const key = 'k'.repeat(5000);
  expect(fieldName(['body', '.', 'custom_fields', '.', key])).toBe(
    `body.custom_fields.${key.slice(0, maxFieldBytes - 19)}… (5,019 characters)`,
  );
});

it('counts the bytes a field takes in JSON, not its characters', () => {
  // A control character is written \u0001: 6 bytes. Before, 1,000 of them made 6 KB fields.
  for (const key of ['\u0001'.repeat(2000), '"'.repeat(2000), 'é'.repeat(2000), '✓'.repeat(2000), '😀'.repeat(2000)]) {
    const field = fieldName(['body', '.', key]);
    expect(jsonBytes(field.slice(0, field.lastIndexOf('…')))).toBeLessThanOrEqual(maxFieldBytes);
    expect(field).toMatch(/… \(2,005 characters\)$|… \(4,005 characters\)$/);
  }
});

it('never cuts a field between the two halves of a surrogate pair', () => {
  // Room for the high half (6 bytes counted) and not the low one: the pair goes whole.
  const start = 'f'.repeat(maxFieldBytes - 10);
  const field = fieldName([`${start}😀${'g'.repeat(10)}`]);
  expect(field).toBe(`${start}… (1,002 characters)`);
});

it('leaves a field fieldName built as it is, and bounds one made elsewhere', () => {
  const built = fieldName(['body', '.', '\u0001'.repeat(3000)]);
  expect(boundedField(built)).toBe(built);
  expect(boundedField('x'.repeat(5000))).toBe(fieldName(['x'.repeat(5000)]));
  expect(boundedField('body.name')).toBe('body.name');
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
  expect(error.message.length).toBeLessThan(maxFieldBytes + 100);
});
