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
 * How many bytes of the answer's JSON an issue's `field` may take. A field spells out the
 * keys above the value, and a caller picks keys of any length and content in free-form
 * objects (`custom_fields`): one key of 300,000 characters above 30,000 failing values spelled
 * 9 GB of field names, which ran the process out of memory, and a key of 1,000 control
 * characters, each written `\u0001` in JSON, made 6 KB of every field. A longer field keeps
 * its start, where the path begins, and says how long it was.
 */
export const maxFieldBytes = 1000;

/**
 * A field from its pieces (`body`, `.`, `custom_fields`, `[`, `3`, `]`), with as much of its
 * start as takes `maxFieldBytes` in JSON, and then how many characters the whole has. Built
 * piece by piece, so that a long key is never copied whole: joining a key of a million
 * characters into each of a thousand fields, to cut them afterwards, copied it a thousand
 * times (2 GB, and the end of a server with a smaller heap).
 */
export function fieldName(pieces: readonly string[]): string {
  let text = '';
  let bytes = 0;
  let characters = 0;
  let cut = false;
  for (const piece of pieces) {
    characters += piece.length;
    if (cut) continue;
    const fits = fittingLength(piece, maxFieldBytes - bytes);
    if (fits === piece.length) {
      text += piece;
      bytes += jsonBytes(piece);
    } else {
      text += piece.slice(0, fits);
      cut = true;
    }
  }
  return cut ? `${text}… (${groupedDigits(characters)} characters)` : text;
}

/** What `fieldName` adds to a field it cut: `… (1,048,576 characters)` takes 28 bytes at most. */
const cutNoteBytes = 32;

/**
 * `field` bounded as `fieldName` bounds it, for the issues made elsewhere than validation; a
 * field `fieldName` built is left as it is.
 */
export function boundedField(field: string): string {
  if (field.length <= maxFieldBytes / 6 || jsonBytes(field) <= maxFieldBytes + cutNoteBytes) return field;
  return fieldName([field]);
}

/**
 * The bytes a code unit takes in JSON text, at most: a control character is written `\u00XX`
 * (6), a quote or backslash escaped (2), and a surrogate counted as 6, an unpaired one being
 * written `\uXXXX` (a pair takes 4 in UTF-8).
 */
function unitBytes(unit: number): number {
  if (unit < 0x20) return 6;
  if (unit === 0x22 || unit === 0x5c) return 2;
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  return unit >= 0xd800 && unit <= 0xdfff ? 6 : 3;
}

function jsonBytes(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) bytes += unitBytes(text.charCodeAt(at));
  return bytes;
}

/** How many code units of `text`, from its start, take at most `budget` bytes, never half a surrogate pair. */
function fittingLength(text: string, budget: number): number {
  let bytes = 0;
  for (let at = 0; at < text.length; at++) {
    bytes += unitBytes(text.charCodeAt(at));
    if (bytes > budget) {
      const previous = text.charCodeAt(at - 1);
      return at > 0 && previous >= 0xd800 && previous <= 0xdbff ? at - 1 : at;
    }
  }
  return text.length;
}
