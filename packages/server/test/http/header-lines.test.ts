/** `headerValues`: one value per line the listener recorded; without lines, what `Headers` says. */
import { expect, it } from 'vitest';
import { headerValues, recordHeaderLines } from '../../src/http/header-lines.ts';

it('without recorded lines, the one value Headers holds (a request made in process)', () => {
  const headers = new Headers({ 'Idempotency-Key': 'a, b' });
  expect(headerValues(headers, 'Idempotency-Key')).toEqual(['a, b']);
  expect(headerValues(headers, 'Authorization')).toEqual([]);
});

it('with the lines, one value per line, whatever the case of the name, trimmed as Headers trims', () => {
  const headers = new Headers();
  headers.append('Idempotency-Key', 'a');
  headers.append('idempotency-key', 'b');
  recordHeaderLines(headers, ['Host', 'x', 'Idempotency-Key', ' a\t', 'IDEMPOTENCY-KEY', 'b']);
  expect(headers.get('Idempotency-Key')).toBe('a, b');
  expect(headerValues(headers, 'idempotency-key')).toEqual(['a', 'b']);
});

it('one line holding a comma is one value', () => {
  const headers = new Headers({ 'Idempotency-Key': 'a, b' });
  recordHeaderLines(headers, ['Idempotency-Key', 'a, b']);
  expect(headerValues(headers, 'Idempotency-Key')).toEqual(['a, b']);
});
