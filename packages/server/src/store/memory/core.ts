/** Memory implementations of the organization, key, idempotency and rate-limit stores. */
import { countHit } from '../rate-limit-window.ts';
import type { IdempotencyRecord } from '../records.ts';
import {
  type ApiKeyStore,
  erasedFingerprint,
  erasedSuffix,
  type HeldClaim,
  type IdempotencyStore,
  type OrganizationStore,
  type RateLimitStore,
} from '../types.ts';
import type { MemoryState } from './state.ts';
import { compareText, patchRow } from './table.ts';

export function memoryOrganizations(state: MemoryState): OrganizationStore {
  return {
    async get(id) {
      return state.organizations.get(id) ?? null;
    },
    async list() {
      return state.organizations
        .all()
        .sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.id, b.id));
    },
    async insert(record) {
      state.organizations.set(record.id, record);
    },
    async update(id, patch) {
      return patchRow(state.organizations, id, patch);
    },
    async insertMember(record) {
      state.users.set(record.id, record);
    },
    async listMembers(organizationId) {
      return state.users
        .where((u) => u.organization_id === organizationId)
        .sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.id, b.id));
    },
    async getMember(organizationId, userId) {
      const user = state.users.get(userId);
      return user && user.organization_id === organizationId ? user : null;
    },
  };
}

export function memoryApiKeys(state: MemoryState): ApiKeyStore {
  return {
    async insert(record) {
      state.apiKeys.set(record.id, record);
    },
    async findByHash(keyHash) {
      const [key] = state.apiKeys.where((k) => k.key_hash === keyHash);
      const organization = key ? state.organizations.get(key.organization_id) : undefined;
      return key && organization ? { key, organization } : null;
    },
    async get(id) {
      return state.apiKeys.get(id) ?? null;
    },
    async listForOrganization(organizationId) {
      return state.apiKeys
        .where((k) => k.organization_id === organizationId)
        .sort((a, b) => compareText(a.created_at, b.created_at) || compareText(a.id, b.id));
    },
    async revoke(id, at) {
      const key = state.apiKeys.get(id);
      if (!key) return null;
      return patchRow(state.apiKeys, id, { revoked_at: key.revoked_at ?? at });
    },
    async replaceSecret(id, { prefix, key_hash }) {
      const key = state.apiKeys.get(id);
      if (!key || key.revoked_at !== null) return null;
      return patchRow(state.apiKeys, id, { prefix, key_hash });
    },
  };
}

/** The stored record is still `claim`, in progress (see `HeldClaim`). */
/** What every refusal's body holds, a whole one's or a batch item's (the API's error body). */
const refusal = '"success":false';

const holds = (record: IdempotencyRecord | undefined, claim: HeldClaim) =>
  record !== undefined && record.state === 'in_progress' && record.locked_until === claim.locked_until;

export function memoryIdempotency(state: MemoryState): IdempotencyStore {
  const keyOf = (organizationId: string, key: string) => `${organizationId}\u0000${key}`;
  return {
    async claim(record, now) {
      const id = keyOf(record.organization_id, record.key);
      const existing = state.idempotency.get(id);
      const takeOver =
        !existing || existing.expires_at <= now || (existing.state === 'in_progress' && existing.locked_until <= now);
      if (takeOver) {
        state.idempotency.set(id, record);
        return { outcome: 'claimed' };
      }
      return { outcome: 'existing', record: existing };
    },
    async complete(claim, status, body) {
      const id = keyOf(claim.organization_id, claim.key);
      if (!holds(state.idempotency.get(id), claim)) return false;
      patchRow(state.idempotency, id, { state: 'completed', response_status: status, response_body: body });
      return true;
    },
    async release(claim) {
      const id = keyOf(claim.organization_id, claim.key);
      if (holds(state.idempotency.get(id), claim)) state.idempotency.delete(id);
    },
    async purgeExpired(now) {
      const expired = state.idempotency.where((r) => Date.parse(r.expires_at) <= Date.parse(now));
      for (const record of expired) state.idempotency.delete(keyOf(record.organization_id, record.key));
      return expired.length;
    },
    async eraseLead(organizationId, leadId, anonymise, refusedOperations) {
      // As the SQL store (sql/core.ts): a refusal or a batch's refused item, not expired.
      const refusedOf = (r: IdempotencyRecord) =>
        r.response_body !== null &&
        r.response_body.includes(refusal) &&
        Date.parse(r.expires_at) > Date.now() &&
        refusedOperations.includes(r.fingerprint.split('.')[0] as string);
      const named = state.idempotency.where(
        (r) =>
          r.organization_id === organizationId &&
          r.response_body !== null &&
          (r.response_body.includes(leadId) || refusedOf(r)),
      );
      for (const record of named) {
        const erased = anonymise(record.response_body ?? '');
        if (erased === record.response_body && record.fingerprint.endsWith(erasedSuffix)) continue;
        patchRow(state.idempotency, keyOf(organizationId, record.key), {
          response_body: erased,
          fingerprint: erasedFingerprint(record.fingerprint),
        });
      }
    },
  };
}

export function memoryRateLimits(state: MemoryState): RateLimitStore {
  return {
    async hit(apiKeyId, buckets, windowStart, windowMs) {
      return buckets.map((bucket) => {
        const id = `${apiKeyId}\u0000${bucket}`;
        const current = state.rateLimits.get(id);
        const counter = countHit(
          current && { windowStart: current.window_start, count: current.count },
          windowStart,
          windowMs,
        );
        state.rateLimits.set(id, { count: counter.count, window_start: counter.windowStart });
        return counter.count;
      });
    },
  };
}
