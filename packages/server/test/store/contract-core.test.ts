/**
 * The store contract for organizations, keys, campaigns, idempotency, rate limits and
 * transactions: the same assertions on memory, PGlite and PostgreSQL.
 */
import { expect, it } from 'vitest';
import type { CampaignRecord, IdempotencyRecord } from '../../src/store/records.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';
import { createApiKey, createOrganization } from '../../src/seed/organizations.ts';
import { describeBackends } from '../support/backends.ts';

const oneMinute = 60_000;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute)).toISOString();

async function organizationWithOwner(store: Store) {
  const ownerId = crypto.randomUUID();
  const organization = await createOrganization(store, {
    name: 'Contract Org',
    members: [{ id: ownerId, email: 'o@example.com', name: 'Owner', role: 'owner' }],
  });
  return { organization, ownerId };
}

function campaign(organizationId: string, ownerId: string, overrides: Partial<CampaignRecord> = {}): CampaignRecord {
  return {
    id: crypto.randomUUID(),
    organization_id: organizationId,
    owner_id: ownerId,
    name: 'Campaign',
    description: '',
    is_active: false,
    ab_testing_enabled: false,
    traffic_split: 50,
    ab_winner: null,
    custom_fields: { list: [1, 2] },
    enabled_accounts: [],
    lead_database_filters: null,
    refill_policy: null,
    responder_enabled: false,
    sequence: [],
    sequence_version: 0,
    activated_at: null,
    created_at: at(0),
    updated_at: at(0),
    ...overrides,
  };
}

/** A first claim of an idempotency key, leased for a minute, replayable for 30. */
function idempotencyClaim(organizationId: string, overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    organization_id: organizationId,
    key: 'k-1',
    fingerprint: 'f1',
    state: 'in_progress',
    locked_until: at(1),
    response_status: null,
    response_body: null,
    created_at: at(0),
    expires_at: at(30),
    ...overrides,
  };
}

describeBackends('store contract: core', (store, backend) => {
  it('finds a key by hash with its organization, and revokes it once', async () => {
    const { organization } = await organizationWithOwner(store());
    const { record } = await createApiKey(store(), { organizationId: organization.id, key: 'ocs_contractKey123' });
    const found = await store().apiKeys.findByHash(record.key_hash);
    expect(found?.key).toEqual(record);
    expect(found?.organization).toEqual(organization);
    expect(await store().apiKeys.findByHash('0'.repeat(64))).toBeNull();
    const revoked = await store().apiKeys.revoke(record.id, at(5));
    expect(revoked?.revoked_at).toBe(at(5));
    expect((await store().apiKeys.revoke(record.id, at(9)))?.revoked_at).toBe(at(5));
  });

  it('keeps JSON values of any shape and timestamps exactly', async () => {
    const { organization, ownerId } = await organizationWithOwner(store());
    const record = campaign(organization.id, ownerId, {
      custom_fields: ['legacy', { a: 1 }],
      sequence: { variation_a: [{ id: 1, type: 'view_profile', delay: 0.5 }] },
      created_at: '2026-11-01T09:00:00.123Z',
    });
    await store().campaigns.insert(record);
    expect(await store().campaigns.get(organization.id, record.id)).toEqual(record);
  });

  it('lists campaigns newest first with ties broken by id, scoped and filtered', async () => {
    const { organization, ownerId } = await organizationWithOwner(store());
    const other = await organizationWithOwner(store());
    const ids = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    await store().campaigns.insert(campaign(organization.id, ownerId, { id: ids[0], created_at: at(1) }));
    await store().campaigns.insert(
      campaign(organization.id, ownerId, { id: ids[1], created_at: at(1), is_active: true }),
    );
    const older = campaign(organization.id, ownerId, { created_at: at(0) });
    await store().campaigns.insert(older);
    await store().campaigns.insert(campaign(other.organization.id, other.ownerId));
    const all = await store().campaigns.list(organization.id, { limit: 10, offset: 0 });
    expect(all.total).toBe(3);
    expect(all.items.map((c) => c.id)).toEqual([ids[1], ids[0], older.id]);
    const page = await store().campaigns.list(organization.id, { limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, items: [{ id: ids[0] }] });
    const beyond = await store().campaigns.list(organization.id, { limit: 5, offset: 10 });
    expect(beyond).toEqual({ total: 3, items: [] });
    const active = await store().campaigns.list(organization.id, { limit: 10, offset: 0, is_active: true });
    expect(active.items.map((c) => c.id)).toEqual([ids[1]]);
    expect(await store().campaigns.get(other.organization.id, older.id)).toBeNull();
  });

  it('saves a sequence only when the version is unchanged', async () => {
    const { organization, ownerId } = await organizationWithOwner(store());
    const record = campaign(organization.id, ownerId);
    await store().campaigns.insert(record);
    const sequence = { variation_a: [{ id: 1, type: 'view_profile' as const }] };
    const first = await store().campaigns.replaceSequence(organization.id, record.id, sequence, 0, at(2));
    expect(first.outcome).toBe('saved');
    if (first.outcome === 'saved') expect(first.campaign).toMatchObject({ sequence, sequence_version: 1 });
    expect((await store().campaigns.replaceSequence(organization.id, record.id, [], 0, at(3))).outcome).toBe(
      'modified',
    );
    const missing = await store().campaigns.replaceSequence(organization.id, crypto.randomUUID(), [], 0, at(3));
    expect(missing.outcome).toBe('not_found');
  });

  it('finds active campaigns that already use accounts', async () => {
    const { organization, ownerId } = await organizationWithOwner(store());
    const holder = campaign(organization.id, ownerId, {
      name: 'Holder',
      is_active: true,
      enabled_accounts: ['acc_b', 'acc_a'],
    });
    const draft = campaign(organization.id, ownerId, { enabled_accounts: ['acc_a'] });
    await store().campaigns.insert(holder);
    await store().campaigns.insert(draft);
    const conflicts = await store().campaigns.findActiveUsingAccounts(
      organization.id,
      ['acc_a', 'acc_b', 'acc_c'],
      draft.id,
    );
    expect(conflicts).toEqual([
      { account_id: 'acc_a', campaign_id: holder.id, campaign_name: 'Holder' },
      { account_id: 'acc_b', campaign_id: holder.id, campaign_name: 'Holder' },
    ]);
    expect(await store().campaigns.findActiveUsingAccounts(organization.id, ['acc_a'], holder.id)).toEqual([]);
  });

  it('deletes the idempotency records whose time ran out, and only those', async () => {
    const { organization } = await organizationWithOwner(store());
    const other = await createOrganization(store(), {
      name: 'Other Org',
      members: [{ id: crypto.randomUUID(), email: 'p@example.com', name: 'Other', role: 'owner' }],
    });
    const claim = (organizationId: string, key: string, expires: number) =>
      store().idempotency.claim(
        idempotencyClaim(organizationId, { key, expires_at: at(expires), locked_until: at(expires) }),
        at(0),
      );
    await claim(organization.id, 'done', 10);
    await claim(organization.id, 'at-the-minute', 20);
    await claim(other.id, 'elsewhere', 15);
    await claim(organization.id, 'live', 40);
    expect(
      await store().idempotency.complete(
        idempotencyClaim(organization.id, { key: 'done', locked_until: at(10) }),
        201,
        '{"lead":{}}',
      ),
    ).toBe(true);
    expect(await store().idempotency.purgeExpired(at(20))).toBe(3);
    expect(await store().idempotency.purgeExpired(at(20))).toBe(0);
    // The live one is still claimed; a purged key is new again.
    const live = await store().idempotency.claim(idempotencyClaim(organization.id, { key: 'live' }), at(21));
    expect(live).toMatchObject({ outcome: 'existing' });
    const done = await store().idempotency.claim(idempotencyClaim(organization.id, { key: 'done' }), at(21));
    expect(done).toEqual({ outcome: 'claimed' });
  });

  it('claims an idempotency key once, and lets an expired or abandoned claim be taken over', async () => {
    const { organization } = await organizationWithOwner(store());
    const claim = (overrides: Partial<IdempotencyRecord> = {}) => idempotencyClaim(organization.id, overrides);
    expect(await store().idempotency.claim(claim(), at(0))).toEqual({ outcome: 'claimed' });
    const second = await store().idempotency.claim(claim({ fingerprint: 'f2' }), at(0));
    expect(second).toMatchObject({ outcome: 'existing', record: { fingerprint: 'f1', state: 'in_progress' } });
    // The lease ran out: the first request died; the next one takes over.
    const takeover = claim({ fingerprint: 'f3', locked_until: at(3) });
    expect(await store().idempotency.claim(takeover, at(2))).toEqual({ outcome: 'claimed' });
    // The first request's claim is no longer its own: it can neither store an answer nor free the key.
    expect(await store().idempotency.complete(claim(), 500, '{"late":true}')).toBe(false);
    await store().idempotency.release(claim());
    expect(await store().idempotency.claim(claim({ fingerprint: 'f3', locked_until: at(9) }), at(2))).toMatchObject({
      outcome: 'existing',
      record: { state: 'in_progress', fingerprint: 'f3' },
    });
    expect(await store().idempotency.complete(takeover, 201, '{"ok":true}')).toBe(true);
    // Completed: a second completion stores nothing, and a release leaves the answer in place.
    expect(await store().idempotency.complete(takeover, 201, '{"again":true}')).toBe(false);
    await store().idempotency.release(takeover);
    const replay = await store().idempotency.claim(claim({ locked_until: at(10) }), at(5));
    expect(replay).toMatchObject({
      outcome: 'existing',
      record: { state: 'completed', response_status: 201, response_body: '{"ok":true}', fingerprint: 'f3' },
    });
    // After the replay window the key is new again.
    const renewed = claim({ expires_at: at(59), locked_until: at(32) });
    expect(await store().idempotency.claim(renewed, at(31))).toEqual({ outcome: 'claimed' });
    await store().idempotency.release(renewed);
    expect(await store().idempotency.claim(claim(), at(31))).toEqual({ outcome: 'claimed' });
  });

  it('keeps a large stored answer exactly, compressed with LZ4 where PostgreSQL has it', async () => {
    const { organization } = await organizationWithOwner(store());
    const answer = JSON.stringify({
      results: Array.from({ length: 2000 }, (_, i) => ({ index: i, email: `lead-${i}@example.com`, name: 'Dana' })),
    });
    const claim = idempotencyClaim(organization.id, { key: 'import-1' });
    await store().idempotency.claim(claim, at(0));
    expect(await store().idempotency.complete(claim, 207, answer)).toBe(true);
    const replay = await store().idempotency.claim(claim, at(5));
    expect(replay).toMatchObject({ outcome: 'existing', record: { response_body: answer } });
    if (backend === 'memory') return;
    // Migration 012 (decision 0017): LZ4 on a server built with it; PGlite has pglz only.
    const { client } = store() as SqlStore;
    const [lz4] = await client.query<{ available: boolean }>(
      `select 'lz4' = any (enumvals) as available from pg_settings where name = 'default_toast_compression'`,
    );
    const [stored] = await client.query<{ method: string | null }>(
      `select pg_column_compression(response_body) as method from idempotency_keys where key = 'import-1'`,
    );
    expect(stored?.method).toBe(lz4?.available ? 'lz4' : 'pglz');
    if (backend === 'postgres') expect(lz4?.available).toBe(true);
  });

  it('counts rate-limit buckets per window', async () => {
    const keyId = crypto.randomUUID();
    expect(await store().rateLimits.hit(keyId, ['endpoint:GET /a', 'total'], at(0), oneMinute)).toEqual([1, 1]);
    expect(await store().rateLimits.hit(keyId, ['endpoint:GET /a', 'total'], at(0), oneMinute)).toEqual([2, 2]);
    expect(await store().rateLimits.hit(keyId, ['endpoint:GET /b', 'total'], at(0), oneMinute)).toEqual([1, 3]);
    expect(await store().rateLimits.hit(keyId, ['endpoint:GET /a', 'total'], at(1), oneMinute)).toEqual([1, 1]);
    expect(await store().rateLimits.hit(crypto.randomUUID(), ['total'], at(1), oneMinute)).toEqual([1]);
  });

  it('rolls a failed transaction back entirely', async () => {
    const { organization, ownerId } = await organizationWithOwner(store());
    const record = campaign(organization.id, ownerId);
    await expect(
      store().transaction(async (tx) => {
        await tx.campaigns.insert(record);
        await tx.campaigns.update(organization.id, record.id, { name: 'renamed' });
        throw new Error('second step failed');
      }),
    ).rejects.toThrow('second step failed');
    expect(await store().campaigns.get(organization.id, record.id)).toBeNull();
    const committed = await store().transaction(async (tx) => {
      await tx.campaigns.insert(record);
      return tx.transaction(async (inner) => inner.campaigns.update(organization.id, record.id, { name: 'nested' }));
    });
    expect(committed?.name).toBe('nested');
    expect((await store().campaigns.get(organization.id, record.id))?.name).toBe('nested');
  });
});
