/** `listenOrigin`: the origin of a server on `--host`, or null for what is no address or name alone. */
import { expect, it } from 'vitest';
import { listenOrigin } from '../../src/http/listen-origin.ts';

it('gives the origin of an address or a name, an IPv6 address bracketed', () => {
  expect(listenOrigin('127.0.0.1')).toBe('http://127.0.0.1');
  expect(listenOrigin('0.0.0.0')).toBe('http://0.0.0.0');
  expect(listenOrigin('::1')).toBe('http://[::1]');
  expect(listenOrigin('::')).toBe('http://[::]');
  expect(listenOrigin('localhost')).toBe('http://localhost');
  expect(listenOrigin('api.internal.example')).toBe('http://api.internal.example');
});

it('refuses what a URL cannot hold, or holds with more than a host', () => {
  for (const host of [
    '',
    'bad host',
    '999.1.1.1',
    '[::1]',
    'localhost:80',
    'a?b',
    'a#b',
    'a/b',
    'user@host',
    'fe80::1%eth0',
  ])
    expect(listenOrigin(host), host).toBeNull();
});
