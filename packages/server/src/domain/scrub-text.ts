/**
 * Finds a lead's values in text a person wrote (a deal's notes, a stored answer) and replaces
 * them, for erasure. It used to be one regular expression of every value; a value of a few
 * thousand accented letters (a long name is valid input) made V8 fail to compile it ("Stack
 * overflow"), which failed the DELETE: the lead could not be erased. So: plain searches in a
 * case-folded copy of the text, whose cost grows with the text and the values, never with
 * what a regular expression compiler can hold.
 *
 * Matching as the expression did: case-insensitive; where a value starts (ends) with a letter
 * or digit, only where no letter or digit is glued to it (a first name `Al` leaves `Also`
 * alone); leftmost first, the longest value first at one place, no overlaps.
 */

const letterOrDigitAtEnd = /[\p{L}\p{N}]$/u;
const letterOrDigitAtStart = /^[\p{L}\p{N}]/u;

/**
 * Case folding that keeps every UTF-16 index where it was (so that a match in the folded
 * copy is a match at the same place in the text): upper then lower case, as a case-insensitive
 * expression compares (`ſ` and `s`, `K` (Kelvin) and `k`), except for the rare characters
 * whose folding changes their length (`İ`, `ß`), which are left as they are.
 *
 * The same character folds the same way wherever it stands: lower-casing a whole string
 * turns a capital sigma at the end of a word into `ς` and elsewhere into `σ` (the only
 * context the language-neutral mapping has), while a character alone always gives `σ`. A text
 * holding an `ß` (folded a character at a time) then never matched a value ending in `ς`
 * (folded whole), and a Greek name next to a German street was not erased. Both become `σ`.
 */
export function foldCase(text: string): string {
  const folded = text.toUpperCase().toLowerCase();
  if (folded.length === text.length) return folded.replaceAll('ς', 'σ');
  let out = '';
  for (const char of text) {
    const one = char.toUpperCase().toLowerCase();
    out += one.length === char.length ? one : char;
  }
  return out.replaceAll('ς', 'σ');
}

interface Needle {
  folded: string;
  checkBefore: boolean;
  checkAfter: boolean;
}

/**
 * Each values list's needles, folded once: an erasure scrubs every string of a JSON value (or
 * of the mock's whole journal) with one list, and folding every value again for every string
 * made a lead with hundreds of long replies take seconds to erase (found by a review).
 */
const needlesOf = new WeakMap<readonly string[], Needle[]>();

function needles(values: readonly string[]): Needle[] {
  let prepared = needlesOf.get(values);
  if (!prepared) {
    // Frozen: a value added to the list after its needles were made would not be found. No
    // caller changes a list once it scrubs with it; one that did would now fail where it does.
    Object.freeze(values);
    prepared = values.map((value) => ({
      folded: foldCase(value),
      checkBefore: letterOrDigitAtStart.test(value),
      checkAfter: letterOrDigitAtEnd.test(value),
    }));
    needlesOf.set(values, prepared);
  }
  return prepared;
}

export function replaceValues(text: string, values: readonly string[], replacement: string): string {
  if (values.length === 0 || text.length === 0) return text;
  const haystack = foldCase(text);
  // Every place a value stands on its own: [start, end, rank], rank = the value's order.
  const found: Array<[number, number, number]> = [];
  needles(values).forEach(({ folded: needle, checkBefore, checkAfter }, rank) => {
    if (needle.length === 0) return;
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (checkBefore && letterOrDigitAtEnd.test(text.slice(Math.max(0, at - 2), at))) continue;
      if (checkAfter && letterOrDigitAtStart.test(text.slice(end, end + 2))) continue;
      found.push([at, end, rank]);
    }
  });
  if (found.length === 0) return text;
  found.sort((a, b) => a[0] - b[0] || a[2] - b[2]);
  let out = '';
  let from = 0;
  for (const [start, end] of found) {
    if (start < from) continue;
    out += text.slice(from, start) + replacement;
    from = end;
  }
  return out + text.slice(from);
}
