/**
 * The delivery-time SSRF guard: every attempt below is refused before a socket reaches
 * anything. The registration-time URL check has its own table (test/domain/webhook-url.test.ts);
 * this one drives the transport end to end, names resolved through an injected lookup,
 * with a loopback receiver (the only real socket) counting that nothing got through.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertPublicAddresses,
  createGuardedLookup,
  type ResolveAllAddresses,
  TargetRefusedError,
} from '../../src/node/connect-guard.ts';
import { createNodeWebhookTransport } from '../../src/node/webhook-transport.ts';
import { type LoopbackReceiver, startLoopbackReceiver } from '../support/loopback-receiver.ts';

let receiver: LoopbackReceiver;
beforeAll(async () => {
  receiver = await startLoopbackReceiver();
});
afterAll(() => receiver.close());

interface Attempt {
  /** `PORT` is replaced by the receiver's port, so a guard that let it through would be seen. */
  url: string;
  /** What the injected lookup answers for the URL's host; absent when the URL alone is refused. */
  answers?: string[];
  /** With the development flag on. */
  insecure?: boolean;
  /** A word the refusal must name. */
  why: string;
}

const attempts: Attempt[] = [
  // Scheme and credentials
  { url: 'http://hooks.example.com:PORT/', why: 'only https' },
  { url: 'http://127.0.0.1:PORT/', why: 'only https' },
  { url: 'https://user:secret@hooks.example.com:PORT/', why: 'credentials' },
  // IP literals in every notation (refused on the URL, before any lookup)
  { url: 'https://2130706433:PORT/', why: 'loopback' },
  { url: 'https://0x7f.1:PORT/', why: 'loopback' },
  { url: 'https://0177.0.0.1:PORT/', why: 'loopback' },
  { url: 'https://127.1:PORT/', why: 'loopback' },
  { url: 'http://2130706433:PORT/', why: 'only https' },
  { url: 'https://[::1]:PORT/', why: 'loopback' },
  { url: 'https://[::ffff:127.0.0.1]:PORT/', why: 'loopback address (IPv4-mapped)' },
  { url: 'https://[::ffff:7f00:1]:PORT/', why: 'loopback address (IPv4-mapped)' },
  { url: 'https://[::ffff:10.0.0.1]/', why: 'private address (IPv4-mapped)' },
  { url: 'https://[64:ff9b::a9fe:a9fe]/', why: 'metadata address (NAT64)' },
  { url: 'https://[2002:c0a8:101::1]/', why: 'private address (6to4)' },
  { url: 'https://10.0.0.1/', why: 'private' },
  { url: 'https://172.16.5.4/', why: 'private' },
  { url: 'https://192.168.1.1/', why: 'private' },
  { url: 'https://100.64.0.1/', why: 'carrier-grade NAT' },
  { url: 'https://169.254.1.1/', why: 'link-local' },
  { url: 'https://169.254.169.254/latest/meta-data/', why: 'metadata' },
  { url: 'https://[fe80::1]/', why: 'link-local' },
  { url: 'https://[fc00::1]/', why: 'unique-local' },
  { url: 'https://[fd00:ec2::254]/', why: 'metadata' },
  { url: 'https://0.0.0.0:PORT/', why: 'unspecified' },
  { url: 'https://[::]:PORT/', why: 'unspecified' },
  { url: 'https://224.0.0.1/', why: 'multicast' },
  { url: 'https://[ff02::1]/', why: 'multicast' },
  { url: 'https://255.255.255.255/', why: 'broadcast' },
  { url: 'https://metadata.google.internal/computeMetadata/v1/', why: '.internal' },
  // The flag opens http and loopback, never private or metadata ranges
  { url: 'http://10.0.0.1/', insecure: true, why: 'private' },
  { url: 'http://169.254.169.254/latest/meta-data/', insecure: true, why: 'metadata' },
  { url: 'http://[fd00:ec2::254]/', insecure: true, why: 'metadata' },
  // Names, resolved at connect time through the injected lookup
  { url: 'https://loop.attacker-owned.net:PORT/', answers: ['127.0.0.1'], why: '127.0.0.1, a loopback' },
  { url: 'https://loop6.attacker-owned.net:PORT/', answers: ['::1'], why: '::1, a loopback' },
  { url: 'https://mapped.attacker-owned.net:PORT/', answers: ['::ffff:127.0.0.1'], why: 'IPv4-mapped' },
  { url: 'https://nat64.attacker-owned.net:PORT/', answers: ['64:ff9b::7f00:1'], why: 'loopback address (NAT64)' },
  { url: 'https://private.attacker-owned.net/', answers: ['10.1.2.3'], why: '10.1.2.3, a private' },
  { url: 'https://cgnat.attacker-owned.net/', answers: ['100.100.0.7'], why: 'carrier-grade NAT' },
  { url: 'https://imds.attacker-owned.net/', answers: ['169.254.169.254'], why: 'metadata' },
  { url: 'https://imds6.attacker-owned.net/', answers: ['fd00:ec2::254'], why: 'metadata' },
  { url: 'https://ll6.attacker-owned.net/', answers: ['fe80::1'], why: 'link-local' },
  { url: 'https://ula.attacker-owned.net/', answers: ['fd12:3456::1'], why: 'unique-local' },
  { url: 'https://zero.attacker-owned.net:PORT/', answers: ['0.0.0.0'], why: 'unspecified' },
  { url: 'https://mixed.attacker-owned.net/', answers: ['93.184.216.34', '10.0.0.1'], why: '10.0.0.1, a private' },
  { url: 'https://mixed6.attacker-owned.net:PORT/', answers: ['2606:4700:4700::1111', '::1'], why: '::1, a loopback' },
  { url: 'https://empty.attacker-owned.net/', answers: [], why: 'resolves to no address' },
  { url: 'http://lan.attacker-owned.net/', answers: ['192.168.0.10'], insecure: true, why: 'private' },
  { url: 'http://imds.attacker-owned.net/', answers: ['169.254.169.254'], insecure: true, why: 'metadata' },
  // The flag allows this host's loopback only: translated forms that embed it are refused
  { url: 'http://[64:ff9b::127.0.0.1]:PORT/', insecure: true, why: 'NAT64' },
  { url: 'http://[2002:7f00:1::]:PORT/', insecure: true, why: '6to4' },
  { url: 'http://nat64.attacker-owned.net:PORT/', answers: ['64:ff9b::7f00:1'], insecure: true, why: 'NAT64' },
  { url: 'http://6to4.attacker-owned.net:PORT/', answers: ['2002:7f00:1::'], insecure: true, why: '6to4' },
];

/** A lookup that answers from a script and records the names it was asked. */
function scriptedLookup(answers: readonly string[] | undefined) {
  const asked: string[] = [];
  const lookup: ResolveAllAddresses = async (hostname) => {
    asked.push(hostname);
    return toAddresses(answers ?? []);
  };
  return { asked, lookup };
}

function toAddresses(addresses: readonly string[]): LookupAddress[] {
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

const delivery = (url: string) => ({
  url,
  body: new TextEncoder().encode('{"event":"prospect_response"}'),
  headers: { 'Content-Type': 'application/json' },
});

describe('SSRF attempts at delivery time', () => {
  it('has a table of at least 30 refused attempts', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(30);
  });

  it.each(attempts)('refuses $url ($why)', async ({ url, answers, insecure, why }) => {
    const target = url.replace('PORT', String(receiver.port));
    const { asked, lookup } = scriptedLookup(answers);
    const transport = createNodeWebhookTransport({ allowInsecure: insecure === true, lookup, timeoutMs: 2000 });
    try {
      const outcome = await transport.send(delivery(target));
      expect(outcome).toMatchObject({ ok: false, status: null });
      expect(outcome.error).toMatch(/^target refused: /);
      expect(outcome.error).toContain(why);
      // A URL refused on its face is never even resolved; a name is resolved once, by the connection.
      expect(asked).toEqual(answers === undefined ? [] : [new URL(target).hostname]);
      expect(receiver.connections).toBe(0);
    } finally {
      transport.close();
    }
  });

  it('refuses a name that rebinds from a public address to loopback before the connection', async () => {
    const script = [toAddresses(['93.184.216.34']), toAddresses(['127.0.0.1'])];
    let calls = 0;
    const lookup: ResolveAllAddresses = async () => script[Math.min(calls++, script.length - 1)] ?? [];
    // A check made apart from the connection (at registration, or a pre-flight lookup) sees a public address...
    expect(() => assertPublicAddresses('rebind.attacker-owned.net', script[0] ?? [])).not.toThrow();
    calls = 1;
    // ...but the connection resolves for itself, once, and checks what it connects to.
    const transport = createNodeWebhookTransport({ lookup });
    try {
      const outcome = await transport.send(delivery(`https://rebind.attacker-owned.net:${receiver.port}/`));
      expect(outcome).toMatchObject({ ok: false, status: null });
      expect(outcome.error).toBe('target refused: rebind.attacker-owned.net resolves to 127.0.0.1, a loopback address');
      expect(calls).toBe(2);
      expect(receiver.connections).toBe(0);
    } finally {
      transport.close();
    }
  });
});

describe('assertPublicAddresses', () => {
  it.each([
    [['8.8.8.8']],
    [['1.1.1.1', '2606:4700:4700::1111']],
    [['93.184.216.34', '172.32.0.1']],
    [['::ffff:8.8.8.8']],
    [['2a00:1450:4001:82b::200e']],
  ])('accepts public answers %j', (addresses) => {
    expect(() => assertPublicAddresses('hooks.example.com', toAddresses(addresses))).not.toThrow();
  });

  it('refuses the whole name when any one answer is not public', () => {
    expect(() => assertPublicAddresses('hooks.example.com', toAddresses(['8.8.8.8', '192.168.1.1']))).toThrow(
      new TargetRefusedError('hooks.example.com resolves to 192.168.1.1, a private address'),
    );
  });

  it('lets loopback through with allowInsecure, and nothing else', () => {
    const insecure = { allowInsecure: true };
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(() => assertPublicAddresses('localhost', toAddresses([address]), insecure), address).not.toThrow();
    }
    const elsewhere = ['64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '2002:7f00:1::', '::127.0.0.1', '::ffff:10.0.0.1'];
    for (const address of [
      '10.0.0.1',
      '192.168.1.1',
      '169.254.169.254',
      'fd00:ec2::254',
      'fe80::1',
      '0.0.0.0',
      ...elsewhere,
    ]) {
      expect(() => assertPublicAddresses('dev.example', toAddresses([address]), insecure), address).toThrow(
        TargetRefusedError,
      );
    }
  });
});

describe('createGuardedLookup', () => {
  type Answer = { error: Error | null; address: unknown; family?: number };
  function callLookup(resolve: ResolveAllAddresses, options: { all?: boolean; family?: number }): Promise<Answer> {
    const lookup = createGuardedLookup(resolve);
    return new Promise((done) =>
      lookup('hooks.example.com', options, (error, address, family) => done({ error, address, family })),
    );
  }

  it('hands the socket exactly the answers it checked, from a single resolution', async () => {
    let resolutions = 0;
    const resolve: ResolveAllAddresses = async () => {
      resolutions += 1;
      return toAddresses(['93.184.216.34', '2606:2800:220:1::1']);
    };
    expect(await callLookup(resolve, { all: true })).toEqual({
      error: null,
      address: toAddresses(['93.184.216.34', '2606:2800:220:1::1']),
      family: undefined,
    });
    expect(await callLookup(resolve, {})).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(await callLookup(resolve, { family: 6 })).toEqual({ error: null, address: '2606:2800:220:1::1', family: 6 });
    expect(resolutions).toBe(3);
  });

  it('refuses with a TargetRefusedError when an answer is not public', async () => {
    const answer = await callLookup(async () => toAddresses(['93.184.216.34', '169.254.169.254']), { all: true });
    expect(answer.error).toBeInstanceOf(TargetRefusedError);
    expect(answer.error?.message).toBe(
      'target refused: hooks.example.com resolves to 169.254.169.254, a cloud metadata address',
    );
  });

  it('passes a resolver failure on as it is', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' });
    const answer = await callLookup(() => Promise.reject(failure), { all: true });
    expect(answer.error).toBe(failure);
  });
});
