/** SQL implementations of the organization, key and idempotency stores (rate limits: rate-limit-counters.ts). */
import type { ApiKeyRecord, IdempotencyRecord, OrganizationRecord, UserRecord } from '../records.ts';
import { type ApiKeyStore, erasedSuffix, type IdempotencyStore, type OrganizationStore } from '../types.ts';
import type { SqlClient } from './client.ts';
import { insertRow, updateRow } from './rows.ts';

const apiKeyJson = new Set(['scopes']);

export function sqlOrganizations(client: SqlClient): OrganizationStore {
  return {
    async get(id) {
      const [row] = await client.query<OrganizationRecord>('select * from organizations where id = $1', [id]);
      return row ?? null;
    },
    async list() {
      return client.query<OrganizationRecord>('select * from organizations order by created_at, id');
    },
    async insert(record) {
      await insertRow(client, 'organizations', record);
    },
    async update(id, patch) {
      return updateRow<OrganizationRecord>(client, 'organizations', { id }, patch);
    },
    async insertMember(record) {
      await insertRow(client, 'users', record);
    },
    async listMembers(organizationId) {
      return client.query<UserRecord>('select * from users where organization_id = $1 order by created_at, id', [
        organizationId,
      ]);
    },
    async getMember(organizationId, userId) {
      const [row] = await client.query<UserRecord>('select * from users where organization_id = $1 and id = $2', [
        organizationId,
        userId,
      ]);
      return row ?? null;
    },
  };
}

export function sqlApiKeys(client: SqlClient): ApiKeyStore {
  return {
    async insert(record) {
      await insertRow(client, 'api_keys', record, apiKeyJson);
    },
    async findByHash(keyHash) {
      const [row] = await client.query<{ key: ApiKeyRecord; organization: OrganizationRecord }>(
        `select to_jsonb(k) as key, to_jsonb(o) as organization
           from api_keys k join organizations o on o.id = k.organization_id
          where k.key_hash = $1`,
        [keyHash],
      );
      if (!row) return null;
      return { key: normaliseTimestamps(row.key), organization: normaliseTimestamps(row.organization) };
    },
    async get(id) {
      const [row] = await client.query<ApiKeyRecord>('select * from api_keys where id = $1', [id]);
      return row ?? null;
    },
    async listForOrganization(organizationId) {
      return client.query<ApiKeyRecord>('select * from api_keys where organization_id = $1 order by created_at, id', [
        organizationId,
      ]);
    },
    async revoke(id, at) {
      const [row] = await client.query<ApiKeyRecord>(
        'update api_keys set revoked_at = coalesce(revoked_at, $2) where id = $1 returning *',
        [id, at],
      );
      return row ?? null;
    },
    async replaceSecret(id, { prefix, key_hash }) {
      const [row] = await client.query<ApiKeyRecord>(
        'update api_keys set prefix = $2, key_hash = $3 where id = $1 and revoked_at is null returning *',
        [id, prefix, key_hash],
      );
      return row ?? null;
    },
  };
}

/** `to_jsonb` renders timestamps as `2026-11-03T16:04:12.345+00:00`; records use the `Z` form. */
function normaliseTimestamps<T>(row: T): T {
  const copy = { ...row } as Record<string, unknown>;
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string' && key.endsWith('_at') && /^\d{4}-\d\d-\d\dT/.test(value)) {
      copy[key] = new Date(value).toISOString();
    }
  }
  return copy as T;
}

/** `erasedFingerprint` (store/types.ts) in SQL, of the row's `fingerprint`; `suffix` is the parameter holding `erasedSuffix`. */
const erasedFingerprintSql = (suffix: string) =>
  `case when strpos(fingerprint, '.') > 1 then split_part(fingerprint, '.', 1) else 'erased' end || ${suffix}`;

export function sqlIdempotency(client: SqlClient): IdempotencyStore {
  return {
    async claim(record, now) {
      // Insert, or take over an expired record or a dead in-progress claim, in one statement.
      const claimed = await client.query(
        `insert into idempotency_keys as k
              (organization_id, key, fingerprint, state, locked_until, response_status, response_body, created_at, expires_at)
         values ($1, $2, $3, $4, $5, null, null, $6, $7)
         on conflict (organization_id, key) do update
            set fingerprint = excluded.fingerprint, state = excluded.state, locked_until = excluded.locked_until,
                response_status = null, response_body = null, created_at = excluded.created_at,
                expires_at = excluded.expires_at
          where k.expires_at <= $8 or (k.state = 'in_progress' and k.locked_until <= $8)
         returning 1`,
        [
          record.organization_id,
          record.key,
          record.fingerprint,
          record.state,
          record.locked_until,
          record.created_at,
          record.expires_at,
          now,
        ],
      );
      if (claimed.length > 0) return { outcome: 'claimed' };
      const [existing] = await client.query<IdempotencyRecord>(
        'select * from idempotency_keys where organization_id = $1 and key = $2',
        [record.organization_id, record.key],
      );
      // Gone between the two statements (released): claim again.
      if (!existing) return this.claim(record, now);
      return { outcome: 'existing', record: existing };
    },
    async complete(claim, status, body) {
      const stored = await client.query(
        `update idempotency_keys set state = 'completed', response_status = $4, response_body = $5
          where organization_id = $1 and key = $2 and state = 'in_progress' and locked_until = $3
         returning 1`,
        [claim.organization_id, claim.key, claim.locked_until, status, body],
      );
      return stored.length > 0;
    },
    async release(claim) {
      await client.query(
        `delete from idempotency_keys
          where organization_id = $1 and key = $2 and state = 'in_progress' and locked_until = $3`,
        [claim.organization_id, claim.key, claim.locked_until],
      );
    },
    async purgeExpired(now) {
      const purged = await client.query('delete from idempotency_keys where expires_at <= $1 returning 1', [now]);
      return purged.length;
    },
    async eraseLead(organizationId, leadId, anonymise, refusedOperations) {
      // Every representation of a lead carries its ID: a stored answer without it holds none.
      // A refusal, or a batch's refused item, holds none either, whatever its request held:
      // those of `refusedOperations` come too, and lose their request's digest below as an
      // import's answer does. Not expired ones: no request replays them, and the purge, which
      // deletes them in its own order, would meet this erasure's locks (a deadlock).
      const rows = await client.query<{ key: string; response_body: string }>(
        `select key, response_body from idempotency_keys
          where organization_id = $1
            and (strpos(response_body, $2) > 0
              or (strpos(response_body, '"success":false') > 0 and expires_at > now()
                  and split_part(fingerprint, '.', 1) = any($3::text[])
                  and right(fingerprint, length($4)) <> $4))
          order by key for update`,
        [organizationId, leadId, refusedOperations, erasedSuffix],
      );
      const fingerprintOnly: string[] = [];
      for (const row of rows) {
        const erased = anonymise(row.response_body);
        // An answer that holds only the lead's ID (an import's) keeps its body; its request,
        // which held the lead's data, loses its fingerprint below, with the others of its kind.
        if (erased === row.response_body) {
          fingerprintOnly.push(row.key);
          continue;
        }
        await client.query(
          `update idempotency_keys set response_body = $3, fingerprint = ${erasedFingerprintSql('$4')}
            where organization_id = $1 and key = $2`,
          [organizationId, row.key, erased, erasedSuffix],
        );
      }
      // Once per key: the import's other leads, erased later, write no new row version.
      if (fingerprintOnly.length > 0) {
        await client.query(
          `update idempotency_keys set fingerprint = ${erasedFingerprintSql('$3')}
            where organization_id = $1 and key = any($2::text[]) and right(fingerprint, length($3)) <> $3`,
          [organizationId, fingerprintOnly, erasedSuffix],
        );
      }
    },
  };
}
