/**
 * Text the command-line tools write on one line: a value they were given, repeated in a
 * message (`got '…'`), and a name they stored, printed in a table. Either may hold what would
 * break the line or drive the terminal (a line break, an escape sequence, a bidi control:
 * `unprintable`), and either may be any length (a name stored before names were bounded): a
 * mistake is said in one line that shows what was given, and a listing shows a name on its
 * line, never the 100,000 characters of a pasted file.
 */
import { unprintable } from '../domain/unprintable-text.ts';

/** How much of a value given a message repeats; the rest is cut, `…` saying so. */
export const echoedLength = 64;

const shortEscapes: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\u202e`: the JSON and JavaScript escape of a character of `unprintable` (all are in the BMP). */
export function unicodeEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with its `unprintable` characters escaped (`\n`, `\u202e`): one line showing what it holds. */
export function escapedText(text: string): string {
  return text.replace(unprintable, (character) => shortEscapes[character] ?? unicodeEscape(character));
}

/** A value given, for a message: escaped, and cut at `echoedLength` characters. */
export function echoed(value: string): string {
  const characters = [...value];
  const kept = characters.length > echoedLength ? `${characters.slice(0, echoedLength).join('')}…` : value;
  return escapedText(kept);
}

/**
 * A stored name for its line of a listing (`org list`): escaped, and cut after `max`
 * characters, the longest its command stores now (admin-names.ts), so that every name stored
 * since prints whole and the columns before it stay as they are. A longer one, stored before
 * the bound or written into the database, is cut with a mark saying so and how long it is:
 * one line, not the pages of a 100,000-character name. `--json` prints it whole.
 */
export function listedName(name: string, max: number): string {
  // Code units first: a name no longer than `max` of them has no more characters either.
  const characters = name.length <= max ? null : [...name];
  if (characters === null || characters.length <= max) return escapedText(name);
  const kept = escapedText(characters.slice(0, max).join(''));
  return `${kept}… (cut at ${max} of ${characters.length} characters; --json prints the whole name)`;
}

/** Whether `text` holds an `unprintable` character (`search`: the expression is global). */
export function holdsUnprintable(text: string): boolean {
  return text.search(unprintable) >= 0;
}

/** The first `unprintable` character of `text` as `U+000A`, or null: named, as a long value is cut before it. */
export function firstUnprintable(text: string): string | null {
  const at = text.search(unprintable);
  return at < 0 ? null : `U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
}
