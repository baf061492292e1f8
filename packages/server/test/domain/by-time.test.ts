/** `byTime`: the store's event order (oldest first, ties by ID) from events in any order. */
import { expect, it } from 'vitest';
import { byTime } from '../../src/domain/activity.ts';

const event = (id: string, occurred_at: string) => ({ id, occurred_at });

it('orders by instant, whatever form the time is written in, and ties by ID', () => {
  const late = event('a', '2026-11-03T09:00:00.000Z');
  const tiedHigh = event('c', '2026-11-02T11:00:00.000+02:00');
  const tiedLow = event('b', '2026-11-02T09:00:00.000Z');
  const early = event('d', '2026-11-01T23:59:59.999Z');
  const given = [late, tiedHigh, tiedLow, early];
  expect(byTime(given)).toEqual([early, tiedLow, tiedHigh, late]);
  // A new array: the caller's is left as it was.
  expect(given).toEqual([late, tiedHigh, tiedLow, early]);
  expect(byTime([])).toEqual([]);
});
