/**
 * Authentication (section 5): `Authorization: Bearer <key>` with exactly one space, sent
 * once (a second line makes it malformed: `401`, as the other malformed forms), the key
 * looked up by its hash, then the key's and its organization's state. A short in-process
 * cache spares the store a read per request; `authCacheTtlMs` bounds how long a revoked
 * key or a deactivated organization can still pass after the change (0 disables it).
 */
import type { ApiKeyRecord, OrganizationRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { hashApiKey, scopeAllows } from '../domain/api-keys.ts';
import { toApiTime } from '../domain/clock.ts';
import { ApiError } from './api-error.ts';
import { headerValues } from './header-lines.ts';

export interface AuthContext {
  key: ApiKeyRecord;
  organization: OrganizationRecord;
}

const bearer = /^Bearer ([^\s]+)$/;

interface CacheEntry {
  found: AuthContext | null;
  until: number;
}

export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: Store,
    private readonly cacheTtlMs: number,
  ) {}

  async authenticate(request: Request, now: Date): Promise<AuthContext> {
    const sent = headerValues(request.headers, 'authorization');
    // Two Authorization lines are one malformed header (section 5: anything but one
    // `Bearer <key>` is), whichever key either holds: never "the first" or "the last".
    if (sent.length > 1) {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        `Malformed Authorization header: it was sent ${sent.length} times. Send it once: Bearer <API_KEY>.`,
      );
    }
    const header = sent[0] ?? null;
    const match = header === null ? null : bearer.exec(header);
    if (!match?.[1]) {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        header === null
          ? 'Missing API key. Send Authorization: Bearer <API_KEY>.'
          : 'Malformed Authorization header. Send exactly "Bearer", one space, and the API key.',
      );
    }
    const found = await this.lookup(match[1], now.getTime());
    if (!found || found.key.revoked_at !== null) {
      throw new ApiError(401, 'UNAUTHORIZED', 'Invalid API key: it is unknown or was revoked.');
    }
    if (found.key.expires_at !== null && found.key.expires_at <= now.toISOString()) {
      throw new ApiError(
        401,
        'API_KEY_EXPIRED',
        // In the API's own time format, as every time in a body.
        `The API key expired on ${toApiTime(found.key.expires_at)}. Generate a new key and revoke this one.`,
      );
    }
    if (!found.organization.is_active) {
      throw new ApiError(403, 'ORGANIZATION_DEACTIVATED', 'The organization that owns this API key is deactivated.');
    }
    return found;
  }

  /** Forgets cached keys, so a revocation made in this process applies at once. */
  invalidate(): void {
    this.cache.clear();
  }

  private async lookup(key: string, now: number): Promise<AuthContext | null> {
    // Cached by the key itself, so a cached request skips hashing too; the map lives only
    // in this process's memory, like the key in the request being served.
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.found;
    const hash = await hashApiKey(key);
    let found: AuthContext | null;
    try {
      found = await this.store.apiKeys.findByHash(hash);
    } catch (error) {
      throw new ApiError(503, 'AUTH_UNAVAILABLE', 'The API key could not be checked. Retry after a short wait.', {
        headers: { 'Retry-After': '1' },
        cause: error,
      });
    }
    if (this.cacheTtlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, { found, until: now + this.cacheTtlMs });
    }
    return found;
  }
}

export function requireScope(auth: AuthContext, scope: string | null): void {
  if (scope === null || scopeAllows(auth.key.scopes, scope)) return;
  throw new ApiError(403, 'INSUFFICIENT_SCOPE', `This endpoint needs the ${scope} scope; the API key lacks it.`);
}
