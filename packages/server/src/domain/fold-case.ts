/**
 * Text in one case, as PostgreSQL's `lower()` writes it: the SQL stores compare emails and
 * sender identities with `lower()` (and a unique index on `lower(email)`), so the memory
 * store (the mock) and the code that compares before writing fold the same way.
 *
 * `lower()` maps each character on its own (Unicode's simple case mapping), where
 * JavaScript's `toLowerCase` applies the full one: a final `Σ` became `ς` (`ΟΔΥΣ` → `οδυς`
 * against `οδυσ`) and `İ` became `i` followed by a combining dot (`i̇`, against `i`), so that
 * two leads the SQL stores took for one address were two on the memory store, and the other
 * way round. Checked against PostgreSQL (15, C.UTF-8) and PGlite: `test/domain/fold-case.test.ts`
 * and the leads contract. Not every character: the two SQL stores differ from each other on
 * characters their Unicode tables do not share (a review compared every code point: 55 with
 * PostgreSQL 15's glibc, 124 with PGlite, which leaves `Ⓐ` to `Ⓩ` as they are), so no one fold
 * can match both; this one matches them on what they agree on.
 */
// eslint-disable-next-line no-control-regex -- every ASCII character, control ones included.
const ascii = /^[\x00-\x7f]*$/;

export function foldCase(text: string): string {
  if (ascii.test(text)) return text.toLowerCase();
  let folded = '';
  // Character by character, so that no character's neighbours change it (the final sigma).
  // `İ` (U+0130) is the one character whose full lowercase is two: its simple one is `i`.
  for (const character of text) folded += character === '\u0130' ? 'i' : character.toLowerCase();
  return folded;
}
