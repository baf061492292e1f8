/**
 * The names and the address the admin commands store (`org create --name`, `--owner-name`,
 * `--owner-email`, `key create --name`), held to what the API holds the same kind of text to
 * (openapi/components/schemas): nothing bounded them, and `org create` stored a name of
 * 100,000 characters, printed whole by every `org list`.
 *
 * - an organization's or a key's name: 500 characters, as the API's names of a company
 *   (`LeadInput.company`), a deal and a pipeline;
 * - a person's name: 200, as `first_name`, `last_name` and `invitee_name`;
 * - an email address: 320, as every `format: email` field (RFC 5321's 64 + 1 + 255).
 *
 * Characters are counted as the API's `maxLength` counts them: code points, so an emoji is one.
 */
import { ocsFormats } from '../openapi/formats.ts';
import { unprintable } from '../domain/unprintable-text.ts';
import { echoed } from './echoed-value.ts';

export const nameLimits = { organization: 500, key: 500, person: 200, email: 320 } as const;

/**
 * Whether a name shows nothing: only white space and invisible formatting characters (a
 * zero-width space, a word joiner, a byte order mark), which `trim` keeps.
 */
export function isBlank(name: string): boolean {
  return /^[\s\p{Z}\p{Cf}]*$/u.test(name);
}

/**
 * What is wrong with a name given as `flag`, in one line saying what to do, or null: a
 * character that would break its line or show it as another name (`unprintable`), text that
 * was not UTF-8 (see below), or more than `max` characters. Blankness is the caller's, whose
 * message names its command.
 */
export function nameProblem(name: string, flag: string, max: number): string | null {
  const at = name.search(unprintable);
  if (at >= 0)
    return `${flag} must be printable text, without line breaks, other control characters or bidirectional-text controls (it holds ${codePoint(name, at)}); give the name without them.`;
  const undecoded = notUtf8(name);
  if (undecoded >= 0)
    return `${flag} is not UTF-8 text (it holds ${codePoint(name, undecoded)} where bytes could not be read); give the name in UTF-8 (check the terminal's character encoding).`;
  const length = characterCount(name);
  if (length > max) return `${flag} must be at most ${max} characters (it has ${length}); give a shorter name.`;
  return null;
}

/** What is wrong with `--owner-email`, or null: no email address, or a longer one than the API takes. */
export function emailProblem(email: string): string | null {
  const length = characterCount(email);
  if (length > nameLimits.email)
    return `--owner-email must be at most ${nameLimits.email} characters (it has ${length}); give the owner's address.`;
  if (!(ocsFormats.email as RegExp).test(email))
    return `--owner-email must be an email address (owner@example.com), got '${echoed(email)}'.`;
  return null;
}

/**
 * Where `text` holds U+FFFD, which Node puts for each byte of an argument that is not UTF-8
 * (`Zoë` typed on a Latin-1 terminal arrives as `Zo\uFFFD`), or a lone surrogate (which only
 * a command sent over the admin channel can hold): the name stored would not be the name
 * typed. -1 when it holds neither.
 */
function notUtf8(text: string): number {
  return text.search(/\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
}

function characterCount(text: string): number {
  return [...text].length;
}

function codePoint(text: string, at: number): string {
  return `U+${text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`;
}
