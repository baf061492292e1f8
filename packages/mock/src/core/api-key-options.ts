/**
 * The checks of `mock.createApiKey(options)`: a misspelt `scope` used to give a key with every
 * scope (the test of a 403 then failed for the wrong reason, or passed for it), and an unknown
 * scope or a date that is none was stored as given.
 */
import { allScopes } from '@ocs/server';
import { optionsOf, shown } from './option-values.ts';

export function checkApiKeyOptions(options: unknown): void {
  const { scopes, expiresAt } = optionsOf(options, 'createApiKey', ['scopes', 'expiresAt']);
  if (scopes !== undefined) {
    const unknown = Array.isArray(scopes)
      ? scopes.filter((scope) => !(allScopes as readonly unknown[]).includes(scope))
      : [];
    if (!Array.isArray(scopes) || unknown.length > 0) {
      throw new TypeError(
        `@ocs/mock: createApiKey.scopes must be a list of ${allScopes.join(', ')}, got ${shown(Array.isArray(scopes) ? unknown : scopes)}.`,
      );
    }
  }
  if (expiresAt !== undefined) {
    const valid =
      (expiresAt instanceof Date || typeof expiresAt === 'string') && !Number.isNaN(new Date(expiresAt).getTime());
    if (!valid) {
      throw new TypeError(
        `@ocs/mock: createApiKey.expiresAt must be a Date or an ISO 8601 time (2026-01-01T00:00:00Z), got ${shown(expiresAt)}.`,
      );
    }
  }
}
