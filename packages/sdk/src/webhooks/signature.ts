/** The header that carries the signature, as the service sends it. */
export const signatureHeader = 'X-Signature-256';

/** Node's `IncomingHttpHeaders`, a plain record, or a Fetch `Headers`. */
export type HeadersLike =
  { get(name: string): string | null } | { readonly [name: string]: string | readonly string[] | undefined };

const format = /^sha256=[0-9a-f]{64}$/;

/**
 * The 64 hex digits of a `sha256=<hex>` signature, in lower case, or undefined when the value
 * has another form. Each entry compares them with its digest its own way.
 */
export function parseSignature(value: string): string | undefined {
  // The form the service sends passes one test that allocates nothing (on a receiver's hot
  // path that is about 5 % of a verification); any other spelling the format allows (upper
  // case, whitespace around it) is trimmed and lower-cased first.
  if (format.test(value) || format.test((value = value.trim().toLowerCase()))) return value.slice(7); // after `sha256=`
  return undefined;
}

/** A header's value as Fetch `Headers` or Node give it (an array when it was sent twice). */
export type HeaderValue = string | readonly string[] | null | undefined;

/**
 * One string for a header's value: a header sent twice (an array) is joined, and anything
 * else a caller passed (a number) is written out; both fail the format check.
 */
export function headerText(value: HeaderValue): string | undefined {
  return value ? String(value) : undefined;
}

/** The signature header from Fetch `Headers` or a plain record, whatever the case of its name. */
export function signatureFrom(headers: HeadersLike): HeaderValue {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(signatureHeader);
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'x-signature-256') return value;
  return undefined;
}
