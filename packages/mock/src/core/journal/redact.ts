/**
 * What the journal never keeps: credentials and webhook signing secrets. Journal entries end
 * up in test output (a failed assertion prints them), CI logs and the standalone mock's
 * control route, which any process on the machine can read; the code under test may hold
 * real values even against the mock (a key or a secret read from its configuration).
 *
 * - Headers: `Authorization` and `Proxy-Authorization` keep their scheme (`Bearer
 *   [redacted]`), so a test still sees how it authenticated; `Cookie` is redacted whole.
 * - Bodies: every `secret` field (the webhook signing secret of `createWebhook`, the secret
 *   operation, and the generated secret of their answers) becomes `[redacted]`, whatever it
 *   holds (a refused request may send an array or an object), and so does every field whose
 *   name mentions a secret in any case (`Secret`, `signing_secret`) and every string holding
 *   a `whsec_` value (a URL carrying one, an error message quoting it). `null` and booleans
 *   are kept (`secret: null`, `has_secret: true`). A test that needs the secret has it: it
 *   sent it, or read it from the answer its code received.
 * - A body that is one JSON string is text, as below.
 * - A body that is not JSON (a malformed one the API answers 400, a form, an override's text)
 *   has no fields to redact one by one, and a pattern would miss what a broken body can look
 *   like (unclosed quotes, single quotes, `secret=`): if its text mentions a secret at all
 *   (`secret`, or a `whsec_` value) it is `[redacted]` whole; other text is kept as it is.
 */

import { setHeader } from '../header-record.ts';

export const redacted = '[redacted]';

const credentialHeaders = new Set(['authorization', 'proxy-authorization']);
const wholeHeaders = new Set(['cookie']);

/**
 * What the journal keeps of a header's value: its scheme alone for a credential, nothing of a
 * cookie, undefined for any other header (kept as it is). `name` in lower case. Applied twice,
 * it gives what it gave once (`Bearer [redacted]` stays so).
 */
export function redactedHeaderValue(name: string, value: string): string | undefined {
  if (credentialHeaders.has(name)) {
    const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
    return scheme ? `${scheme} ${redacted}` : redacted;
  }
  return wholeHeaders.has(name) ? redacted : undefined;
}

/** The headers as a plain object (lower-case names), credentials redacted. */
export function redactedHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of headers) {
    const kept = redactedHeaderValue(name, value);
    if (kept !== undefined) result[name] = kept;
    else setHeader(result, name, value);
  }
  return result;
}

/**
 * Node's header lines (name, value, name, value...) with the credentials' values redacted as
 * `redactedHeaderValue` does: the same array when it holds none, else a copy (Node's own array
 * is the request's, never written to). Names are compared in lower case, as Node gives them as sent.
 */
export function redactedHeaderLines(lines: readonly string[]): readonly string[] {
  let copy: string[] | undefined;
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i] as string;
    // Cheap for the other lines: only the three names' lengths are looked at further.
    if (name.length !== 6 && name.length !== 13 && name.length !== 19) continue;
    const kept = redactedHeaderValue(name.toLowerCase(), lines[i + 1] as string);
    if (kept === undefined) continue;
    copy ??= [...lines];
    copy[i + 1] = kept;
  }
  return copy ?? lines;
}

/** A key that names a secret, in any case and spelling around it: `secret`, `Secret`, `signing_secret`. */
const secretKey = /secret/i;

/** A webhook signing secret's prefix (the service's generated secrets, and the document's examples). */
const signingSecret = /whsec_/i;

/**
 * Whether a value under a secret's key is kept: `null` and booleans hold no secret, and say
 * something a test may check (`secret: null` asks for a generated one; a webhook's answer has
 * `has_secret: true`).
 */
const holdsNoSecret = (value: unknown) => value === null || typeof value === 'boolean';

/**
 * A parsed body with its secrets redacted: every value under a key that names a secret (a
 * string, a number, an array, an object: what a refused request may send), and every string
 * that holds a signing secret (`whsec_`: a URL carrying one, an error message quoting it),
 * wherever it stands; a key holding one is redacted with its value. Arrays are redacted in
 * place, objects copied (their keys may change): it is the journal's own parse.
 */
export function redactSecrets<T>(value: T): T {
  if (typeof value === 'string') return (signingSecret.test(value) ? redacted : value) as T;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      value[index] = redactSecrets(item);
    });
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  // Entries, not assignments: a `__proto__` key of the JSON stays a key.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]): [string, unknown] => {
      if (signingSecret.test(key)) return [redacted, redacted];
      if (secretKey.test(key)) return [key, holdsNoSecret(item) ? item : redacted];
      return [key, redactSecrets(item)];
    }),
  ) as T;
}

/** Text that may hold a signing secret: the field's name in any spelling, or a `whsec_` value. */
const mentionsSecret = /secret|whsec_/i;

/**
 * A body's text as the journal shows it: its JSON with its secrets redacted (`redactSecrets`);
 * a body that is one JSON string, or text that is not JSON, as it is, or `[redacted]` whole
 * when it mentions a secret; undefined for none.
 */
export function redactedBody(text: string): unknown {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return mentionsSecret.test(text) ? redacted : text;
  }
  // A JSON string is text, with no field to redact one by one: as text that is not JSON.
  if (typeof value === 'string') return mentionsSecret.test(value) ? redacted : value;
  return redactSecrets(value);
}
