import { expect, it } from 'vitest';
import { uuidV7 } from '../../src/domain/uuid-v7.ts';

const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisecondsOf = (id: string) => parseInt(id.replaceAll('-', '').slice(0, 12), 16);

it('carries the time in its first 48 bits, with the version and variant of a UUIDv7', () => {
  const at = Date.UTC(2026, 10, 25, 6, 30);
  const id = uuidV7(at);
  expect(id).toMatch(shape);
  expect(millisecondsOf(id)).toBe(at);
});

it('sorts in creation order within one millisecond and across a spent counter', () => {
  const at = Date.UTC(2030, 0, 1);
  const ids = Array.from({ length: 5000 }, () => uuidV7(at));
  for (const id of ids) expect(id).toMatch(shape);
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(ids.length);
  // More than the 12-bit counter holds: the later IDs borrow the next millisecond.
  expect(millisecondsOf(ids.at(-1) ?? '')).toBeGreaterThan(at);
});

it('stays ordered when the clock steps back', () => {
  const first = uuidV7(Date.UTC(2031, 0, 1, 0, 0, 1));
  const second = uuidV7(Date.UTC(2031, 0, 1, 0, 0, 0));
  expect(second > first).toBe(true);
});
