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

/** The headers as a plain object (lower-case names), credentials redacted. */
export function redactedHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (credentialHeaders.has(name)) {
      const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
      result[name] = scheme ? `${scheme} ${redacted}` : redacted;
    } else if (wholeHeaders.has(name)) result[name] = redacted;
    else setHeader(result, name, value);
  }
  return result;
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
