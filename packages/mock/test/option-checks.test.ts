/**
 * `createOcsMock` and `startMockServer` refuse options they cannot honour at once, with a
 * TypeError (a RangeError for a number out of range) naming the option: a misspelt name or a
 * value of the wrong type used to be ignored or read as its default, and a wrong clock or
 * fixture shape failed later, in the seed, naming neither.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOcsMock, startMockServer } from '../src/node/index.ts';
import { startPrism } from '../src/prism/start-prism.ts';

type Refusal = [string, unknown, ErrorConstructor, RegExp];

const refused: Refusal[] = [
  ['null options', null, TypeError, /createOcsMock takes an options object or nothing, got null/],
  ['options that are no object', 42, TypeError, /createOcsMock takes an object/],
  ['a misspelt seed', { seeds: 42 }, TypeError, /createOcsMock has no option "seeds"; it takes baseUrl, seed,/],
  ['a misspelt baseUrl', { baseURL: 'https://x.test/v1' }, TypeError, /no option "baseURL"/],
  ['a misspelt rateLimits', { rateLimit: { perEndpoint: 1 } }, TypeError, /no option "rateLimit"/],
  ['a seed that is NaN', { seed: Number.NaN }, TypeError, /seed must be an integer, got NaN/],
  ['a seed that is no safe integer', { seed: 2 ** 60 }, RangeError, /seed must be a safe integer/],
  ['a seed that is a bigint', { seed: 10n }, TypeError, /seed must be an integer, got 10n\./],
  [
    'a clock whose now() is an invalid Date',
    { clock: { now: () => new Date(Number.NaN) } },
    TypeError,
    /clock\.now\(\) must return a valid Date, got Invalid Date\./,
  ],
  ['a baseUrl that is no string', { baseUrl: new URL('https://x.test/v1') }, TypeError, /baseUrl must be a string/],
  ['a mailto: baseUrl', { baseUrl: 'mailto:a@b.example' }, TypeError, /baseUrl must be an http:\/\/ or https:\/\/ URL/],
  ['an ftp: baseUrl', { baseUrl: 'ftp://files.example/v1' }, TypeError, /http:\/\/ or https:\/\//],
  ['a baseUrl with a query', { baseUrl: 'https://x.test/v1?key=1' }, TypeError, /no query, fragment or credentials/],
  ['a baseUrl with credentials', { baseUrl: 'https://u:p@x.test/v1' }, TypeError, /no query, fragment or credentials/],
  ['fixtures that are text', { fixtures: 'x' }, TypeError, /fixtures takes an object/],
  ['fixtures that are a list', { fixtures: [] }, TypeError, /fixtures takes an object/],
  ['a misspelt fixtures.campaigns', { fixtures: { campaign: [] } }, TypeError, /fixtures has no option "campaign"/],
  ['campaigns that are no list', { fixtures: { campaigns: {} } }, TypeError, /fixtures\.campaigns must be an array/],
  [
    'a campaign that is null',
    { fixtures: { campaigns: [null] } },
    TypeError,
    /fixtures\.campaigns\[0\] must be an object/,
  ],
  ['leads that are no list', { fixtures: { leads: {} } }, TypeError, /fixtures\.leads must be an array/],
  [
    'a campaign’s leads that are no list',
    { fixtures: { campaigns: [{ name: 'A', leads: 'x' }] } },
    TypeError,
    /fixtures\.campaigns\[0\]\.leads must be an array/,
  ],
  [
    'senders that are neither auto nor IDs',
    { fixtures: { campaigns: [{ name: 'A', senders: 'all' }] } },
    TypeError,
    /fixtures\.campaigns\[0\]\.senders must be 'auto' or a list of account IDs/,
  ],
  [
    'activate that is no boolean',
    { fixtures: { campaigns: [{ name: 'A', activate: 'yes' }] } },
    TypeError,
    /fixtures\.campaigns\[0\]\.activate must be true or false/,
  ],
  ['a clock without now()', { clock: {} }, TypeError, /clock must be an object with a now\(\) method/],
  [
    'a clock giving no Date',
    { clock: { now: () => 'x' } },
    TypeError,
    /clock\.now\(\) must return a valid Date, got "x"/,
  ],
  ['a clock giving an invalid Date', { clock: { now: () => new Date('x') } }, TypeError, /must return a valid Date/],
  [
    'allowInsecureWebhooks as text',
    { allowInsecureWebhooks: 'true' },
    TypeError,
    /allowInsecureWebhooks must be true or false/,
  ],
  ['journal as a number', { journal: 5 }, TypeError, /journal takes an object/],
  ['a misspelt journal.limit', { journal: { limt: 5 } }, TypeError, /journal has no option "limt"/],
  ['journal.limit as text', { journal: { limit: '5' } }, TypeError, /journal\.limit must be a number, got "5"/],
  ['a negative journal.limit', { journal: { limit: -1 } }, RangeError, /journal\.limit must be a whole number >= 0/],
];

describe('createOcsMock refuses', () => {
  it.each(refused)('%s', async (_, options, kind, message) => {
    const created = createOcsMock(options as Parameters<typeof createOcsMock>[0]);
    await expect(created).rejects.toThrow(message);
    await expect(created).rejects.toBeInstanceOf(kind);
  });

  it('nothing it documents: every option at once', async () => {
    const mock = await createOcsMock({
      baseUrl: 'http://localhost:3000/api/',
      seed: -7,
      fixtures: { campaigns: [{ name: 'A', senders: [], leads: [{ email: 'a@example.com' }] }], leads: [] },
      rateLimits: { perEndpoint: 0, total: 10, windowMs: 1_000 },
      clock: { now: () => new Date('2026-11-02T09:00:00Z') },
      allowInsecureWebhooks: true,
      journal: { limit: 0 },
    });
    expect(mock.baseUrl).toBe('http://localhost:3000/api/v1');
    expect(mock.data.campaigns.map((campaign) => campaign.name)).toEqual(['A']);
  });
});

describe('startMockServer refuses', () => {
  it.each<[string, unknown, RegExp]>([
    [
      'a port that is text',
      { port: 'abc' },
      /port must be a whole number from 0 to 65535 \(0: a free one\), got "abc"/,
    ],
    ['a port out of range', { port: 70_000 }, /port must be a whole number from 0 to 65535/],
    ['a host no URL holds', { host: 'bad host' }, /host must be an interface's address or name .*got "bad host"/],
    ['a host with a port', { host: 'localhost:80' }, /got "localhost:80"/],
    // It failed in the resolver (getaddrinfo EINVAL), after the engine was built.
    ['a host longer than DNS allows', { host: 'a'.repeat(254) }, /host must be at most 253 characters/],
    [
      'a base URL, which is where it listens',
      { baseUrl: 'https://x.test/v1' },
      /startMockServer has no option "baseUrl"/,
    ],
    ['a misspelt option', { prot: 0 }, /startMockServer has no option "prot"/],
  ])('%s', async (_, options, message) => {
    const started = startMockServer(options as Parameters<typeof startMockServer>[0]);
    await expect(started).rejects.toThrow(message);
    await expect(started).rejects.toBeInstanceOf(TypeError);
  });

  it('nothing else: an IPv6 host listens, on a URL with brackets', async () => {
    const server = await startMockServer({ port: 0, host: '::1', journal: { limit: 5 } });
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+\/v1$/);
      const response = await fetch(`${server.url}/campaigns`, {
        headers: { Authorization: `Bearer ${server.apiKey}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('startPrism refuses, before it starts Prism, as startMockServer does', () => {
  it.each<[string, unknown, ErrorConstructor, RegExp]>([
    ['null options', null, TypeError, /startPrism takes an options object or nothing, got null/],
    ['a misspelt option', { bogus: 1 }, TypeError, /startPrism has no option "bogus"; it takes port, host,/],
    ['a port out of range', { port: 70_000 }, TypeError, /port must be a whole number from 0 to 65535/],
    ['a port that is text', { port: '0' }, TypeError, /port must be a whole number from 0 to 65535/],
    ['a host no URL holds', { host: 'bad host' }, TypeError, /host must be an interface's address or name/],
    ['an empty host, every interface', { host: '' }, TypeError, /host must be an interface's address or name/],
    ['a host longer than DNS allows', { host: 'a'.repeat(254) }, TypeError, /host must be at most 253 characters/],
    ['a start timeout of 0', { startTimeoutMs: 0 }, RangeError, /startTimeoutMs must be a whole number of ms >= 1/],
    ['a log that is no function', { log: 'console' }, TypeError, /log must be a function/],
  ])('%s', async (_, options, kind, message) => {
    // Before the checks, some of these started Prism: stopped here, so that the failure is the test's only.
    const started = startPrism(options as Parameters<typeof startPrism>[0]).then(async (prism) => {
      await prism.close();
      return 'started';
    });
    await expect(started).rejects.toThrow(message);
    await expect(started).rejects.toBeInstanceOf(kind);
  });
});

describe('the README', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

  it('says that startMockServer takes no baseUrl, as its type and its checks say', async () => {
    const paragraph = readme.split('\n\n').find((text) => text.startsWith('From code (Node): `startMockServer('));
    expect(paragraph).toBeDefined();
    expect(paragraph).not.toMatch(/\.\.\.createOcsMock's options \}\)/);
    expect(paragraph).toMatch(/It takes no `baseUrl`/);
    await expect(startMockServer({ baseUrl: 'x' } as never)).rejects.toThrow(/startMockServer has no option "baseUrl"/);
  });

  it('says what a rate limit of 0 does, in the table of ocs-mock options', () => {
    for (const option of ['--rate-limit-per-endpoint', '--rate-limit-total']) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${option} <n>\``));
      expect(row, option).toMatch(/`0` answers every request `429`/);
    }
  });
});
