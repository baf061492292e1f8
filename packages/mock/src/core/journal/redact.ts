/**
 * What the journal never keeps: credentials and webhook signing secrets. Journal entries end
 * up in test output (a failed assertion prints them), CI logs and the standalone mock's
 * control route, which any process on the machine can read; the code under test may hold
 * real values even against the mock (a key or a secret read from its configuration).
 *
 * - Headers: `Authorization` and `Proxy-Authorization` keep their scheme (`Bearer
 *   [redacted]`), so a test still sees how it authenticated; `Cookie` is redacted whole.
 * - Bodies: every `secret` field (the webhook signing secret of `createWebhook`, the secret
 *   operation, and the generated secret of their answers) becomes `[redacted]`. A test that
 *   needs the secret has it: it sent it, or read it from the answer its code received.
 * - A body that is not JSON (a malformed one the API answers 400, a form, an override's text)
 *   has no fields to redact one by one, and a pattern would miss what a broken body can look
 *   like (unclosed quotes, single quotes, `secret=`): if its text mentions a secret at all
 *   (`secret`, or a `whsec_` value) it is `[redacted]` whole; other text is kept as it is.
 */

import { setHeader } from '../header-record.ts';

export const redacted = '[redacted]';

const credentialHeaders = new Set(['authorization', 'proxy-authorization']);
const wholeHeaders = new Set(['cookie']);
const secretFields = new Set(['secret']);

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

/** A parsed body with every `secret` field's string value redacted (in place: it is the journal's own copy). */
export function redactSecrets<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) redactSecrets(item);
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(object)) {
      if (secretFields.has(key) && typeof item === 'string') object[key] = redacted;
      else redactSecrets(item);
    }
  }
  return value;
}

/** Text that may hold a signing secret: the field's name in any spelling, or a `whsec_` value. */
const mentionsSecret = /secret|whsec_/i;

/**
 * A body's text as the journal shows it: its JSON with every `secret` redacted; text that
 * is not JSON as it is, or `[redacted]` whole when it mentions a secret; undefined for none.
 */
export function redactedBody(text: string): unknown {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return mentionsSecret.test(text) ? redacted : text;
  }
  return redactSecrets(value);
}
