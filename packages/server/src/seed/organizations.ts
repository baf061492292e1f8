/**
 * Creating organizations, members and API keys: what an organization's owners do in the
 * application's settings (section 5), done here by the CLI, the demo seed and tests.
 */
import { allScopes, displayPrefix, generateApiKey, hashApiKey } from '../domain/api-keys.ts';
import type { ApiKeyRecord, OrganizationRecord, Scope, UserRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { newId } from '../domain/ids.ts';
import { ApiError } from '../http/api-error.ts';

export interface NewOrganization {
  name: string;
  id?: string;
  members?: Array<Pick<UserRecord, 'email' | 'name' | 'role'> & { id?: string }>;
  now?: Date;
}

export async function createOrganization(store: Store, input: NewOrganization): Promise<OrganizationRecord> {
  const at = (input.now ?? new Date()).toISOString();
  const organization: OrganizationRecord = {
    id: input.id ?? newId(),
    name: input.name,
    is_active: true,
    subscription_active: true,
    created_at: at,
  };
  await store.transaction(async (tx) => {
    await tx.organizations.insert(organization);
    for (const member of input.members ?? []) {
      await tx.organizations.insertMember({
        id: member.id ?? newId(),
        organization_id: organization.id,
        email: member.email,
        name: member.name,
        role: member.role,
        created_at: at,
      });
    }
  });
  return organization;
}

/** The name of a key created without one. */
const defaultKeyName = 'API key';

export interface NewApiKey {
  /** The key's ID; generated when omitted. */
  id?: string;
  organizationId: string;
  name?: string;
  scopes?: readonly Scope[];
  expiresAt?: string | null;
  /** A fixed key (tests and seeded mocks); generated when omitted. */
  key?: string;
  now?: Date;
}

/**
 * Creates a key and returns it in full: the only time it is ever shown. Refused with
 * `403 ORGANIZATION_DEACTIVATED` (the answer every request with the key would get, section 5)
 * when the organization is deactivated. An organization deactivated at the same moment can
 * still end up with the key; authentication reads the organization's state on every request,
 * so that key answers 403 all the same.
 */
export async function createApiKey(store: Store, input: NewApiKey): Promise<{ key: string; record: ApiKeyRecord }> {
  const organization = await store.organizations.get(input.organizationId);
  if (organization !== null && !organization.is_active) {
    throw new ApiError(
      403,
      'ORGANIZATION_DEACTIVATED',
      `Organization ${organization.id} is deactivated: no API key is created for it.`,
    );
  }
  const key = input.key ?? generateApiKey();
  const record: ApiKeyRecord = {
    id: input.id ?? newId(),
    organization_id: input.organizationId,
    name: input.name ?? defaultKeyName,
    prefix: displayPrefix(key),
    key_hash: await hashApiKey(key),
    scopes: [...(input.scopes ?? allScopes)],
    expires_at: input.expiresAt ?? null,
    revoked_at: null,
    created_at: (input.now ?? new Date()).toISOString(),
  };
  await store.apiKeys.insert(record);
  return { key, record };
}

/**
 * How long after its creation a key may get a new secret from the request that made it: far
 * longer than the CLI takes to send a command again (`OCS_ADMIN_TIMEOUT_MS`, 10 s by default,
 * plus 5 s, at most 10 times), and short enough that an existing key's secret cannot be
 * replaced by naming its ID long after.
 */
const reissuableForMs = 15 * 60_000;

/**
 * A new secret for `earlier`, a key that the same request made (same organization, name,
 * scopes and expiry, not revoked, within `reissuableForMs`) before its answer was lost: the
 * CLI sends a `key create` again, with the key's ID, when the server stopped after its commit
 * and before answering. The lost secret was never shown to anyone; it stops working. Null
 * when `earlier` is not what this request would have made (another key with that ID).
 */
export async function reissueApiKey(
  store: Store,
  earlier: ApiKeyRecord,
  input: Omit<NewApiKey, 'id' | 'key'>,
): Promise<{ key: string; record: ApiKeyRecord } | null> {
  const scopes = [...(input.scopes ?? allScopes)].sort();
  const expiresAt = input.expiresAt ?? null;
  const now = (input.now ?? new Date()).getTime();
  const same =
    earlier.revoked_at === null &&
    now - Date.parse(earlier.created_at) <= reissuableForMs &&
    earlier.organization_id === input.organizationId &&
    earlier.name === (input.name ?? defaultKeyName) &&
    [...earlier.scopes].sort().join() === scopes.join() &&
    (earlier.expires_at === null || expiresAt === null
      ? earlier.expires_at === expiresAt
      : Date.parse(earlier.expires_at) === Date.parse(expiresAt));
  if (!same) return null;
  const key = generateApiKey();
  const record = await store.apiKeys.replaceSecret(earlier.id, {
    prefix: displayPrefix(key),
    key_hash: await hashApiKey(key),
  });
  return record === null ? null : { key, record };
}
