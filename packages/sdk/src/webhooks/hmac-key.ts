import { Buffer } from 'node:buffer';
import { createSecretKey, type KeyObject } from 'node:crypto';

// `createHmac` given a string sets the key up again on every call: with a 4 KB body that is
// 3-5 % of a verification (docs/sdk-internals.md). A receiver verifies with one secret, or two
// while rotating, so the last few keys are kept; a receiver serving many tenants' secrets keeps
// only the most recent, never an unbounded list of secrets.
const kept = new Map<string, KeyObject>();
const keep = 4;

/** The HMAC key of a secret (its UTF-8 bytes, as `createHmac` takes a string), prepared once. */
export function hmacKey(secret: string): KeyObject {
  let key = kept.get(secret);
  if (key === undefined) {
    if (kept.size === keep) kept.delete(kept.keys().next().value as string);
    kept.set(secret, (key = createSecretKey(Buffer.from(secret))));
  }
  return key;
}
