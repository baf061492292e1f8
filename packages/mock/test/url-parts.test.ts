/**
 * `urlParts` (src/core/url-parts.ts) splits a plain URL by hand: it must read every URL as
 * `new URL()` does, the plain ones it splits and the others it hands to the parser.
 */
import { expect, it } from 'vitest';
import { urlParts } from '../src/core/url-parts.ts';

const parsed = (href: string) => {
  const { pathname, search } = new URL(href);
  return { pathname, search };
};

it('reads the URLs requests have as the parser does', () => {
  for (const href of [
    'http://127.0.0.1:4011/v1/leads?limit=20',
    'https://api.ocs.test/v1/campaigns',
    'http://[::1]:4011/v1/leads?',
    'http://localhost/v1/leads?email=a@b.example&limit=5?x',
    'http://localhost/v1/./leads/../campaigns',
    'http://localhost/v1/leads/.',
    'http://localhost/v1/leads/%2e%2E/x?q=%27',
    "http://localhost/v1/leads?q='a b'",
    'http://localhost/v1/leads#part?x',
    'http://localhost/v1/le\\ads',
    'http://LOCALHOST/v1/Leads?Q=1',
    'http://localhost/v1/{id}?a=`b`',
  ]) {
    expect(urlParts(href), href).toEqual(parsed(href));
  }
});

it('agrees with the parser on many generated URLs', () => {
  // A fixed generator (a linear congruential one), so that a failure repeats.
  let state = 7;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const plain = 'abcXYZ019-._~!$&()*+,;=:@/?';
  const other = '\'%#\\ [].\t"<>`{}|^';
  const hosts = ['127.0.0.1:4011', 'on.ocs.test', '[::1]:80', 'localhost'];
  for (let i = 0; i < 20_000; i++) {
    let tail = '';
    const length = next(14);
    for (let j = 0; j < length; j++) tail += next(5) < 4 ? plain[next(plain.length)] : other[next(other.length)];
    const href = `http${next(2) ? 's' : ''}://${hosts[i % hosts.length]}/${tail}`;
    let expected: ReturnType<typeof parsed>;
    try {
      expected = parsed(href);
    } catch {
      continue;
    }
    expect(urlParts(href), href).toEqual(expected);
  }
});
