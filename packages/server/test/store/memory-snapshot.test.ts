/**
 * The memory store's snapshot and restore (the mock's `reset()`): inserts, updates and
 * deletes after a snapshot are undone, transactions see the restored rows, and a snapshot
 * is not changed by later writes. Also the ID source the mock seeds with.
 */
import { expect, it } from 'vitest';
import { newId, withIdSource } from '../../src/domain/ids.ts';
import { createOrganization } from '../../src/seed/organizations.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

it('restores every table as it was when the snapshot was taken', async () => {
  const store = createMemoryStore();
  const kept = await createOrganization(store, { name: 'Kept' });
  const snapshot = store.snapshot();

  await createOrganization(store, { name: 'Added later' });
  await store.organizations.update(kept.id, { name: 'Renamed' });
  expect((await store.organizations.list()).map((o) => o.name).sort()).toEqual(['Added later', 'Renamed']);

  store.restore(snapshot);
  expect(await store.organizations.list()).toEqual([kept]);
  // A transaction's view shares the restored tables.
  await store.transaction(async (tx) => {
    expect(await tx.organizations.get(kept.id)).toEqual(kept);
  });

  // The snapshot itself is untouched by writes after a restore: restoring again gives the same.
  await store.organizations.update(kept.id, { name: 'Renamed again' });
  store.restore(snapshot);
  expect((await store.organizations.get(kept.id))?.name).toBe('Kept');
});

it('draws record IDs from the installed source while it runs, UUIDv7 otherwise', async () => {
  let next = 0;
  const ids = () => `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
  const inside = await withIdSource(ids, async () => [newId(), newId()]);
  expect(inside).toEqual(['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']);
  expect(newId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await expect(withIdSource(ids, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(newId()).not.toMatch(/^00000000-/);
});
