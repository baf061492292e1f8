/**
 * What `checkAdminCommand` makes of `key create --expires-at` (strict ISO 8601, in the future,
 * canonical), and what `org create` and `key create` do when sent again with their record ID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/domain/api-keys.ts';
import { type AdminCommand, checkAdminCommand, runAdminCommand } from '../../src/node/admin-commands.ts';
import { createApiKey } from '../../src/seed/organizations.ts';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';

const organizationId = '00000000-0000-4000-8000-000000000000';

it('takes a date-time with an offset, or a date, in the future, in canonical form', () => {
  for (const [given, stored] of [
    ['2099-01-31T12:00:00+02:00', '2099-01-31T10:00:00.000Z'],
    ['2099-01-31', '2099-01-31T00:00:00.000Z'],
  ]) {
    expect(checkAdminCommand({ command: 'key create', organizationId, expiresAt: given })).toMatchObject({
      expiresAt: stored,
    });
  }
});

it('refuses what new Date() would have stretched into a date, and the past', () => {
  for (const given of ['90', '1', '2099-02-30', '2099-01-31T10:00:00', '']) {
    expect(() => checkAdminCommand({ command: 'key create', organizationId, expiresAt: given })).toThrow(
      /--expires-at must be an ISO 8601/,
    );
  }
  const past = new Date(Date.now() - 60_000).toISOString();
  expect(() => checkAdminCommand({ command: 'key create', organizationId, expiresAt: past })).toThrow(
    /--expires-at must be in the future/,
  );
});

it('refuses a name with a line break or another control character (it would break org list), takes any printable text', () => {
  for (const bad of ['a\nb', 'tab\there', 'esc\u001b[31mred', 'c1\u0085']) {
    expect(() => checkAdminCommand({ command: 'org create', name: bad })).toThrow(/--name must be printable text/);
    expect(() => checkAdminCommand({ command: 'org create', name: 'Acme', ownerName: bad })).toThrow(
      /--owner-name must be printable text/,
    );
    expect(() => checkAdminCommand({ command: 'key create', organizationId, name: bad })).toThrow(
      /--name must be printable text/,
    );
  }
  expect(checkAdminCommand({ command: 'org create', name: 'Zoë & Co — 東京 🚀' })).toMatchObject({
    name: 'Zoë & Co — 東京 🚀',
  });
});

it('refuses a name holding a lone surrogate (only a command over the admin channel can), as text that is not UTF-8', () => {
  for (const bad of ['a\ud800b', 'a\udc00', '\ud83d']) {
    expect(() => checkAdminCommand({ command: 'org create', name: bad })).toThrow(/--name is not UTF-8 text/);
    expect(() => checkAdminCommand({ command: 'key create', organizationId, name: bad })).toThrow(
      /--name is not UTF-8 text/,
    );
  }
  // A surrogate pair is one character: an emoji is a name.
  expect(checkAdminCommand({ command: 'org create', name: '\ud83d\ude80' })).toMatchObject({ name: '🚀' });
});

describe('a command sent again with its record ID (its first answer was lost)', () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openSqlStore();
  }, 60_000);
  afterAll(() => store.close());

  it('org create answers the organization made, and refuses the ID under another name', async () => {
    const id = crypto.randomUUID();
    const first = await runAdminCommand(store, { command: 'org create', name: 'Acme', id });
    const again = await runAdminCommand(store, { command: 'org create', name: 'Acme', id });
    expect(again.json).toEqual(first.json);
    expect(again.logged).toEqual({ record_id: id });
    expect((await store.organizations.list()).filter((o) => o.id === id)).toHaveLength(1);
    await expect(runAdminCommand(store, { command: 'org create', name: 'Other', id })).rejects.toMatchObject({
      kind: 'state',
    });
  });

  it('seed answers the demo organization made, with a new secret for its key', async () => {
    const id = crypto.randomUUID();
    const first = await runAdminCommand(store, { command: 'seed', id });
    const second = await runAdminCommand(store, { command: 'seed', id });
    const lost = first.json as { organizationId: string; apiKey: string };
    const kept = second.json as { organizationId: string; apiKey: string };
    expect([first.logged, second.logged]).toEqual([{ record_id: id }, { record_id: id, reissued: true }]);
    expect(kept.organizationId).toBe(id);
    expect(lost.organizationId).toBe(id);
    expect(await store.apiKeys.findByHash(await hashApiKey(lost.apiKey))).toBeNull();
    expect((await store.apiKeys.findByHash(await hashApiKey(kept.apiKey)))?.organization.id).toBe(id);
    expect((await store.organizations.list()).filter((o) => o.id === id)).toHaveLength(1);
    expect(await store.accounts.list(id, { limit: 10, offset: 0 })).toMatchObject({ total: 4 });
    // Another organization's ID is not a demo organization to answer with.
    const other = (await runAdminCommand(store, { command: 'org create', name: 'Not demo' })).json as { id: string };
    await expect(runAdminCommand(store, { command: 'seed', id: other.id })).rejects.toMatchObject({ kind: 'state' });
  });

  it('key create gives the key a new secret, and refuses another key’s ID or a revoked one', async () => {
    const org = await runAdminCommand(store, { command: 'org create', name: 'Keys' });
    const organizationId = (org.json as { id: string }).id;
    const id = crypto.randomUUID();
    const command: AdminCommand = { command: 'key create', organizationId, scopes: ['campaigns:read'], name: 'ci', id };
    const first = await runAdminCommand(store, command);
    const second = await runAdminCommand(store, command);
    const lost = first.json as { id: string; key: string };
    const kept = second.json as { id: string; key: string };
    // The serving process logs these: the re-issue is there for an operator to find, no secret.
    expect(first.logged).toEqual({ record_id: id });
    expect(second.logged).toEqual({ record_id: id, reissued: true });
    expect(kept.id).toBe(id);
    expect(kept.key).not.toBe(lost.key);
    expect(await store.apiKeys.findByHash(await hashApiKey(lost.key))).toBeNull();
    expect((await store.apiKeys.findByHash(await hashApiKey(kept.key)))?.key.id).toBe(id);
    expect(await store.apiKeys.listForOrganization(organizationId)).toHaveLength(1);
    for (const other of [{ scopes: ['leads:read'] }, { name: 'other' }, { expiresAt: '2099-01-01' }]) {
      await expect(runAdminCommand(store, { ...command, ...other })).rejects.toMatchObject({ kind: 'state' });
    }
    await runAdminCommand(store, { command: 'key revoke', keyId: id });
    await expect(runAdminCommand(store, command)).rejects.toMatchObject({ kind: 'state' });
    // A key made long ago is not a lost answer's: naming its ID does not replace its secret.
    const old = await createApiKey(store, {
      id: crypto.randomUUID(),
      organizationId,
      name: 'ci',
      scopes: ['campaigns:read'],
      now: new Date(Date.now() - 20 * 60_000),
    });
    await expect(runAdminCommand(store, { ...command, id: old.record.id })).rejects.toMatchObject({ kind: 'state' });
    expect((await store.apiKeys.findByHash(await hashApiKey(old.key)))?.key.id).toBe(old.record.id);
    expect(await store.apiKeys.findByHash(await hashApiKey(kept.key))).toMatchObject({
      key: { revoked_at: expect.any(String) },
    });
  });
});
