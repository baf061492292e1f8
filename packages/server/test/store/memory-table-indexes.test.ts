/**
 * The memory store's secondary indexes (store/memory/table.ts): a row is found by an indexed
 * column after every kind of change, rollbacks, snapshots and `clear` included, exactly as a
 * scan would find it.
 */
import { expect, it } from 'vitest';
import { DataVersion, Journal, Table } from '../../src/store/memory/table.ts';

interface Row {
  id: string;
  lead: string;
  campaign: string | null;
  step: number;
}

const table = () => new Table<Row>(null, new DataVersion(), { lead: (r) => r.lead, campaign: (r) => r.campaign });
const ids = (rows: Row[]) => rows.map((r) => r.id).sort();

it('finds the rows of a value, follows updates of the indexed column, and forgets deleted rows', () => {
  const t = table();
  t.set('1', { id: '1', lead: 'a', campaign: 'x', step: 1 });
  t.set('2', { id: '2', lead: 'a', campaign: null, step: 2 });
  t.set('3', { id: '3', lead: 'b', campaign: 'x', step: 3 });
  expect(ids(t.whereIndexed('lead', 'a'))).toEqual(['1', '2']);
  expect(ids(t.whereIndexed('campaign', 'x'))).toEqual(['1', '3']);
  // A null value is not indexed.
  expect(t.whereIndexed('campaign', 'null')).toEqual([]);
  expect(ids(t.whereIndexed('lead', 'a', (r) => r.step > 1))).toEqual(['2']);
  t.set('1', { id: '1', lead: 'b', campaign: 'x', step: 1 });
  expect(ids(t.whereIndexed('lead', 'a'))).toEqual(['2']);
  expect(ids(t.whereIndexed('lead', 'b'))).toEqual(['1', '3']);
  t.delete('3');
  expect(ids(t.whereIndexed('lead', 'b'))).toEqual(['1']);
  expect(ids(t.whereIndexed('campaign', 'x'))).toEqual(['1']);
  // Copies, as every read of the store: changing one changes nothing stored.
  const [copy] = t.whereIndexed('lead', 'b');
  if (copy) copy.lead = 'z';
  expect(t.whereIndexed('lead', 'z')).toEqual([]);
  // An update keeps the row's place in the table's order.
  t.set('2', { id: '2', lead: 'a', campaign: 'y', step: 5 });
  expect(t.all().map((r) => r.id)).toEqual(['1', '2']);
  expect(() => t.whereIndexed('nothing', 'a')).toThrow('no index nothing');
});

it('undoes a rolled-back transaction in the indexes too, and rebuilds them on restore and clear', () => {
  const t = table();
  t.set('1', { id: '1', lead: 'a', campaign: 'x', step: 1 });
  const snapshot = t.snapshot();
  const journal = new Journal();
  journal.begin();
  const tx = t.withJournal(journal);
  tx.set('2', { id: '2', lead: 'a', campaign: 'x', step: 2 });
  tx.set('1', { id: '1', lead: 'c', campaign: 'x', step: 1 });
  tx.delete('2');
  tx.set('3', { id: '3', lead: 'c', campaign: 'y', step: 3 });
  // The transaction's view and the table share rows and indexes.
  expect(ids(t.whereIndexed('lead', 'c'))).toEqual(['1', '3']);
  journal.rollback();
  expect(ids(t.whereIndexed('lead', 'a'))).toEqual(['1']);
  expect(t.whereIndexed('lead', 'c')).toEqual([]);
  expect(t.whereIndexed('campaign', 'y')).toEqual([]);
  t.set('4', { id: '4', lead: 'd', campaign: 'x', step: 4 });
  t.restore(snapshot);
  expect(t.whereIndexed('lead', 'd')).toEqual([]);
  expect(ids(t.whereIndexed('campaign', 'x'))).toEqual(['1']);
  t.clear();
  expect(t.whereIndexed('lead', 'a')).toEqual([]);
});
