import { groupedDigits } from '../domain/grouped-digits.ts';

/**
 * How much one `VALIDATION_ERROR` answer may say (decision 0005, "An answer bounded by the
 * server, not by the body"). Section 7 has `details.errors` list each failing field; a body
 * of 1 MB can fail in 600,000 places, and listing them all answered 55 MB after seconds of
 * the server's one thread and hundreds of megabytes, per request. So the checks stop once
 * they have found more than `maxIssues`, the answer lists the first `maxIssues`, and says it
 * has more (`details.errors_truncated`).
 */
export const maxIssues = 1000;

/**
 * How long an issue's `field` may be. A field spells out the keys above the value, and a
 * caller picks keys of any length in free-form objects (`custom_fields`): one key of
 * 400,000 characters above 40,000 failing values spelled 16 GB of field names, which ran
 * the process out of memory. A longer field keeps its start, where the path begins, and
 * says how long it was.
 */
export const maxFieldLength = 1000;

/** `field`, or its first `maxFieldLength` characters and how many there were. */
export function boundedField(field: string): string {
  if (field.length <= maxFieldLength) return field;
  // Not between the two halves of a surrogate pair, which would leave half a character.
  const end = /[\uD800-\uDBFF]/.test(field.charAt(maxFieldLength - 1)) ? maxFieldLength - 1 : maxFieldLength;
  return `${field.slice(0, end)}… (${groupedDigits(field.length)} characters)`;
}
