/**
 * API keys: `ocs_` followed by 40 random base62 characters. Only a SHA-256 hash is stored;
 * the full key is shown once, when it is created. A fast hash is right here: keys are long
 * random secrets, not passwords, and the hash is looked up on every request.
 */
import type { Scope } from '../store/records.ts';
import { sha256Hex } from './hash.ts';

export const keyPrefix = 'ocs_';
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Every scope of the API; keys generated today hold all of them (section 5). */
export const allScopes: readonly Scope[] = [
  'leads:read',
  'leads:write',
  'campaigns:read',
  'campaigns:write',
  'crm:read',
  'crm:write',
  'accounts:read',
  'accounts:write',
];

export function generateApiKey(): string {
  let key = keyPrefix;
  while (key.length < keyPrefix.length + 40) {
    for (const byte of crypto.getRandomValues(new Uint8Array(48))) {
      // 248 = 4 * 62: rejecting the top 8 values keeps every character equally likely.
      if (byte < 248 && key.length < keyPrefix.length + 40) key += alphabet[byte % 62];
    }
  }
  return key;
}

export const hashApiKey = (key: string) => sha256Hex(key);

/** The part of a key shown in listings and `GET /auth/verify`. */
export const displayPrefix = (key: string) => key.slice(0, keyPrefix.length + 4);

/** Whether `granted` allows `required`: `write` includes `read` of the same family. */
export function scopeAllows(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  const [family, level] = required.split(':');
  return level === 'read' && granted.includes(`${family}:write`);
}
