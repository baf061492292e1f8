/**
 * The memory store's data version (what the mock's answer cache keys on): every change of
 * any table moves it on, a read never does, and it never goes back, not even when a
 * rollback or a restore puts the rows back as they were.
 */
import { expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

it('moves on with every write, in or out of a transaction, and stays put on reads', async () => {
  const store = createMemoryStore();
  const start = store.dataVersion();
  const organization = await createOrganization(store, { name: 'Versioned' });
  const afterCreate = store.dataVersion();
  expect(afterCreate).toBeGreaterThan(start);

  await store.organizations.get(organization.id);
  await store.organizations.list();
  await store.transaction(async (tx) => tx.organizations.get(organization.id));
  expect(store.dataVersion()).toBe(afterCreate);

  await store.organizations.update(organization.id, { name: 'Renamed' });
  const afterUpdate = store.dataVersion();
  expect(afterUpdate).toBeGreaterThan(afterCreate);

  await store.transaction(async (tx) => {
    await tx.organizations.update(organization.id, { name: 'In a transaction' });
    // A write inside a transaction is seen at once (the memory store has no isolation).
    expect(store.dataVersion()).toBeGreaterThan(afterUpdate);
  });
  expect((await store.organizations.get(organization.id))?.name).toBe('In a transaction');
});

it('moves on when a rollback undoes a write, though the rows are as they were', async () => {
  const store = createMemoryStore();
  const organization = await createOrganization(store, { name: 'Kept' });
  const before = store.dataVersion();
  let during = 0;
  await expect(
    store.transaction(async (tx) => {
      await tx.organizations.update(organization.id, { name: 'Undone' });
      during = store.dataVersion();
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect((await store.organizations.get(organization.id))?.name).toBe('Kept');
  expect(during).toBeGreaterThan(before);
  // Not back to `before`: something read while the write was visible must not pass for current.
  expect(store.dataVersion()).toBeGreaterThan(during);

  // A nested transaction that throws undoes its own write only, and moves the version on too.
  await store.transaction(async (tx) => {
    await tx.organizations.update(organization.id, { name: 'Outer' });
    const outer = store.dataVersion();
    await tx
      .transaction(async (inner) => {
        await inner.organizations.update(organization.id, { name: 'Inner' });
        throw new Error('inner');
      })
      .catch(() => undefined);
    expect(store.dataVersion()).toBeGreaterThan(outer + 1);
  });
  expect((await store.organizations.get(organization.id))?.name).toBe('Outer');
});

it("moves on at a restore and a clear, never back to the snapshot's value", async () => {
  const store = createMemoryStore();
  await createOrganization(store, { name: 'Seeded' });
  const snapshot = store.snapshot();
  const atSnapshot = store.dataVersion();

  store.restore(snapshot); // nothing changed since, still a new version
  const restored = store.dataVersion();
  expect(restored).toBeGreaterThan(atSnapshot);

  await createOrganization(store, { name: 'Later' });
  store.restore(snapshot);
  expect(store.dataVersion()).toBeGreaterThan(restored + 1);

  const beforeClear = store.dataVersion();
  store.clear();
  expect(store.dataVersion()).toBeGreaterThan(beforeClear);
});
