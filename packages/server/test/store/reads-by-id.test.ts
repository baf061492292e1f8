/**
 * Reads by ID on the SQL stores (src/store/sql/reads-by-id.ts): reads made at the same time
 * share statements, and each still gets exactly what a read of its own would (its row, null
 * for another organization's row or a deleted lead); inside a transaction a read runs alone
 * on the transaction's connection and sees its writes. PGlite, and PostgreSQL with DATABASE_URL.
 */
import { expect, it } from 'vitest';
import { createOrganization } from '../../src/seed/organizations.ts';
import type { SqlClient } from '../../src/store/sql/client.ts';
import { type SqlStore, sqlStoreOn } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';
import { describeSqlBackends } from '../support/backends.ts';
import { insertCampaign, leadRecord } from '../support/lead-fixtures.ts';

/** The store over a client that counts the statements sent through it. */
function counted(store: Store): { store: Store; statements: () => number } {
  const client = (store as SqlStore).client;
  let statements = 0;
  const counting: SqlClient = {
    ...client,
    query: (text, params) => {
      statements += 1;
      return client.query(text, params);
    },
    transaction: (work) => client.transaction(work),
  };
  return { store: sqlStoreOn(counting), statements: () => statements };
}

async function organization(store: Store, name: string) {
  const ownerId = crypto.randomUUID();
  const org = await createOrganization(store, {
    name,
    members: [{ id: ownerId, email: `${name}@example.com`, name, role: 'owner' }],
  });
  return { id: org.id, ownerId };
}

// The SQL stores only: the memory store reads its maps, with nothing to share.
describeSqlBackends('reads by ID', (store, backend) => {
  it('reads made at the same time share statements, each answered as a read of its own', async () => {
    const a = await organization(store(), 'a');
    const b = await organization(store(), 'b');
    const ofA = await Promise.all([1, 2, 3, 4].map(() => insertCampaign(store(), a.id, a.ownerId)));
    const ofB = await insertCampaign(store(), b.id, b.ownerId, { name: 'B campaign' });
    const { store: reading, statements } = counted(store());
    const asked = [
      ...ofA.map((c) => [a.id, c.id] as const),
      [a.id, ofA[0]?.id ?? ''] as const, // the same row twice
      [b.id, ofB.id] as const,
      [a.id, ofB.id] as const, // another organization's campaign
      [a.id, crypto.randomUUID()] as const, // no such campaign
    ];
    const answers = await Promise.all(asked.map(([org, id]) => reading.campaigns.get(org, id)));
    expect(answers.map((c) => c?.id ?? null)).toEqual([...ofA.map((c) => c.id), ofA[0]?.id, ofB.id, null, null]);
    expect(answers[5]?.name).toBe('B campaign');
    // Eight reads, at most two statements at once: the first turn's reads go together.
    expect(statements()).toBeLessThan(asked.length);
    expect(statements()).toBeGreaterThan(0);
  });

  it('a deleted lead is not found, and a lead of another organization is not either', async () => {
    const a = await organization(store(), 'a');
    const b = await organization(store(), 'b');
    const kept = leadRecord(a.id, { email: 'kept@example.com' });
    const gone = leadRecord(a.id, { email: 'gone@example.com', deleted_at: '2026-11-01T00:00:00.000Z' });
    const foreign = leadRecord(b.id, { email: 'foreign@example.com' });
    await store().leads.insertMissing([kept, gone, foreign]);
    const [k, g, f] = await Promise.all([
      store().leads.get(a.id, kept.id),
      store().leads.get(a.id, gone.id),
      store().leads.get(a.id, foreign.id),
    ]);
    expect(k?.email).toBe('kept@example.com');
    expect(g).toBeNull();
    expect(f).toBeNull();
  });

  it('inside a transaction a read runs on its connection and sees the transaction’s own writes', async () => {
    const a = await organization(store(), 'a');
    const seen = await store().transaction(async (tx) => {
      const made = await insertCampaign(tx, a.id, a.ownerId, { name: 'Not committed yet' });
      const inside = await tx.campaigns.get(a.id, made.id);
      // Outside the transaction it does not exist yet (PGlite has one connection, which the
      // transaction holds: a read outside would wait for it).
      const outside = backend === 'postgres' ? await store().campaigns.get(a.id, made.id) : null;
      return { inside: inside?.name, outside };
    });
    expect(seen).toEqual({ inside: 'Not committed yet', outside: null });
  });
});
