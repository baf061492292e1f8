/**
 * foldCase folds as PostgreSQL's lower() does, on PGlite and (when DATABASE_URL is set) on
 * PostgreSQL: the text each store compares emails and sender identities in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldCase } from '../../src/domain/fold-case.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import { sqlBackends, sqlStoreWithOrganization } from '../support/sql-store-with-organization.ts';

const samples = [
  'Maya.Patel@AcmeRobotics.com',
  'ΟΔΥΣΣΕΥΣ@ithaca.example',
  'İstanbul@örnek.example',
  'ÉCOLE@Straße.example',
  'ǅungla@x.example',
  'ΑΣ Σ@x.example',
  'Ⅻ@roman.example',
  '𐐀𐐁@deseret.example',
  'Ꭰ@cherokee.example',
];

it('folds each character on its own: a final sigma stays σ, İ becomes i', () => {
  expect(foldCase('ΟΔΥΣ')).toBe('οδυσ');
  expect(foldCase('İ')).toBe('i');
  expect(foldCase('ASCII@Example.COM')).toBe('ascii@example.com');
});

describe.each(sqlBackends)('as lower() on $name', ({ name }) => {
  const backend = sqlStoreWithOrganization(name, 'fold_case');
  let store: SqlStore;
  beforeAll(async () => {
    ({ store } = await backend.open());
  }, 60_000);
  afterAll(() => backend.close());
  it.each(samples)('%s', async (text) => {
    const [row] = await store.client.query<{ folded: string }>('select lower($1) as folded', [text]);
    expect(foldCase(text)).toBe(row?.folded);
  });
});
