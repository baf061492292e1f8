/**
 * The journal's entries made from a standalone request's header lines (journal.ts,
 * `recordHeaderLines`) when a line is one `Headers` refuses: Node's parser lets a NUL in a value
 * through under `--insecure-http-parser`. The entry lists the value without it, and every read
 * and erasure of the journal goes on working; a request or answer header named `__proto__` is
 * listed as any other (src/core/header-record.ts).
 */
import { expect, it } from 'vitest';
import { createJournal, recordHeaderLines } from '../src/core/journal/journal.ts';

const now = () => new Date('2026-11-28T06:00:00.000Z');

it('lists a value Headers refuses without the refused characters, and keeps reading and erasing', async () => {
  const journal = createJournal({ limit: 10, now });
  const request = new Request('http://127.0.0.1:4011/v1/leads?email=maya%40example.com');
  recordHeaderLines(request, ['Host', '127.0.0.1:4011', 'X-Bad', 'a\0b', 'Authorization', 'Bearer k', 'Bad Name', 'x']);
  const pending = journal.begin(request, '?email=maya%40example.com', '/leads', undefined);
  await pending?.answered(Response.json({ success: true }));
  const [entry] = journal.api.all();
  expect(entry?.headers).toEqual({ host: '127.0.0.1:4011', 'x-bad': 'ab', authorization: 'Bearer [redacted]' });
  expect(() =>
    journal.erase({ id: 'lead-1', email: 'maya@example.com' } as Parameters<typeof journal.erase>[0]),
  ).not.toThrow();
  expect(JSON.stringify(journal.api.all())).not.toContain('maya');
});

it('keeps a request and an answer header named __proto__ as their own fields', async () => {
  const journal = createJournal({ limit: 10, now });
  // Pairs: in an object literal, `__proto__` would set the prototype, not a header.
  const request = new Request('http://127.0.0.1:4011/v1/campaigns', { headers: [['__proto__', 'y']] });
  const pending = journal.begin(request, '', '/campaigns', undefined);
  await pending?.answered(
    new Response('{}', {
      headers: [
        ['__proto__', 'x'],
        ['content-type', 'application/json'],
      ],
    }),
  );
  const [entry] = journal.api.all();
  expect(Object.keys(entry?.headers ?? {})).toEqual(['__proto__']);
  expect(entry?.headers['__proto__']).toBe('y');
  const headers = entry?.response?.headers ?? {};
  expect(Object.keys(headers)).toEqual(['__proto__', 'content-type']);
  expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
});
