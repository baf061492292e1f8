import { Buffer } from 'node:buffer';
import { createSecretKey, type KeyObject } from 'node:crypto';

// `createHmac` given a string sets the key up again on every call: with a 4 KB body that is
// 3-5 % of a verification (docs/sdk-internals.md). A secret seen again gets a key prepared
// once; a secret seen the first time is used as it is, since preparing a key costs more than
// one HMAC with the string: a receiver going through more secrets than are kept (tenants, a
// long rotation list) must not pay that on every call. The last few secrets are remembered,
// never an unbounded list of them.
const kept = new Map<string, KeyObject | null>();
const keep = 4;

/** What `createHmac` takes for a secret: its prepared key once it is seen again, else the secret. */
export function hmacKey(secret: string): KeyObject | string {
  const key = kept.get(secret);
  if (key) return key;
  if (key === null) {
    const prepared = createSecretKey(Buffer.from(secret));
    kept.set(secret, prepared);
    return prepared;
  }
  if (kept.size === keep) kept.delete(kept.keys().next().value as string);
  kept.set(secret, null);
  return secret;
}
