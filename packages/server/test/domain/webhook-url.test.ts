/** The registration-time webhook URL check: every notation of a non-public target is refused. */
import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  nonPublicAddressRange,
  parseIpv4,
  parseIpv6,
  urlForMessage,
} from '../../src/domain/webhook-url.ts';

/** URL, and a word the refusal's reason must contain. */
const refused: Array<[string, string]> = [
  // Scheme and credentials
  ['http://hooks.example.com/ocs', 'https'],
  ['ftp://hooks.example.com/ocs', 'https'],
  ['javascript:alert(1)', 'https'],
  ['https://user:pass@hooks.example.com/ocs', 'credentials'],
  ['https://token@hooks.example.com/ocs', 'credentials'],
  ['https://hooks.example.com:0/ocs', 'port is 0'],
  ['https://hooks.example.com:00/ocs', 'port is 0'],
  ['not a url', 'valid'],
  [`https://hooks.example.com/${'é'.repeat(400)}`, 'longer than 2000'],
  // IPv4 loopback in every notation
  ['https://127.0.0.1/hook', 'loopback'],
  ['https://127.1/hook', 'loopback'],
  ['https://2130706433/hook', 'loopback'],
  ['https://0x7f000001/hook', 'loopback'],
  ['https://0x7f.0.0.1/hook', 'loopback'],
  ['https://0177.0.0.1/hook', 'loopback'],
  ['https://017700000001/hook', 'loopback'],
  ['https://127.000.000.001/hook', 'loopback'],
  ['https://%31%32%37.0.0.1/hook', 'loopback'],
  ['https://１２７.０.０.１/hook', 'loopback'],
  ['https://127.0.0.1./hook', 'loopback'],
  // Other IPv4 ranges
  ['https://0.0.0.0/hook', 'unspecified'],
  ['https://0/hook', 'unspecified'],
  ['https://10.0.4.17/hooks', 'private'],
  ['https://172.16.0.1/hook', 'private'],
  ['https://172.31.255.255/hook', 'private'],
  ['https://192.168.1.10:8443/hook', 'private'],
  ['https://3232235786/hook', 'private'],
  ['https://100.64.0.1/hook', 'carrier-grade'],
  ['https://169.254.169.254/latest/meta-data/', 'metadata'],
  ['https://0xa9fea9fe/latest/meta-data/', 'metadata'],
  ['https://100.100.100.200/latest/meta-data/', 'metadata'],
  ['https://192.0.0.192/opc/v2/', 'metadata'],
  ['https://169.254.1.1/hook', 'link-local'],
  ['https://192.0.2.10/hook', 'documentation'],
  ['https://198.18.0.1/hook', 'benchmarking'],
  ['https://224.0.0.1/hook', 'multicast'],
  ['https://239.255.255.250/hook', 'multicast'],
  ['https://240.0.0.1/hook', 'reserved'],
  ['https://255.255.255.255/hook', 'reserved'],
  // IPv6
  ['https://[::1]/hook', 'loopback'],
  ['https://[0:0:0:0:0:0:0:1]/hook', 'loopback'],
  ['https://[::]/hook', 'unspecified'],
  ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
  ['https://[::ffff:7f00:1]/hook', 'loopback'],
  ['https://[::ffff:10.1.2.3]/hook', 'private'],
  ['https://[::ffff:169.254.169.254]/hook', 'metadata'],
  ['https://[::127.0.0.1]/hook', 'IPv4-compatible'],
  ['https://[::8.8.8.8]/hook', 'IPv4-compatible'],
  ['https://[::ffff:0:127.0.0.1]/hook', 'IPv4-translated'],
  ['https://[64:ff9b::127.0.0.1]/hook', 'loopback'],
  ['https://[2002:7f00:1::]/hook', 'loopback'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'Teredo'],
  ['https://[fd00:ec2::254]/latest/meta-data/', 'metadata'],
  ['https://[fd12:3456:789a::1]/hook', 'unique-local'],
  ['https://[fc00::1]/hook', 'unique-local'],
  ['https://[fe80::1]/hook', 'link-local'],
  ['https://[fec0::1]/hook', 'site-local'],
  ['https://[ff02::1]/hook', 'multicast'],
  ['https://[2001:db8::1]/hook', 'documentation'],
  ['https://[100::1]/hook', 'discard'],
  ['https://[4000::1]/hook', 'reserved'],
  // Names
  ['https://localhost/hook', 'single-label'],
  ['https://LOCALHOST./hook', 'single-label'],
  ['https://api.localhost/hook', '.localhost'],
  ['https://printer.local/hook', '.local'],
  ['https://metadata.google.internal/computeMetadata/v1/', '.internal'],
  ['https://instance-data.ec2.internal/latest/', '.internal'],
  ['https://metadata.goog/computeMetadata/v1/', 'metadata'],
  ['https://metadata/computeMetadata/v1/', 'single-label'],
  ['https://intranet/hook', 'single-label'],
  ['https://router.home.arpa/hook', '.home.arpa'],
  ['https://1.0.0.127.in-addr.arpa/hook', '.arpa'],
  ['https://hooks.test/hook', '.test'],
  ['https://nas.lan/hook', '.lan'],
];

const accepted: Array<[string, string]> = [
  [
    'https://hooks.northwind-outreach.com/ocs/prospect-response',
    'https://hooks.northwind-outreach.com/ocs/prospect-response',
  ],
  ['https://Hooks.Example.COM', 'https://hooks.example.com/'],
  ['https://hooks.example.com:8443/ocs?tenant=7', 'https://hooks.example.com:8443/ocs?tenant=7'],
  ['https://hooks.example.com:443/ocs', 'https://hooks.example.com/ocs'],
  ['https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
  ['https://134744072/hook', 'https://8.8.8.8/hook'],
  ['https://[2606:4700:4700::1111]/hook', 'https://[2606:4700:4700::1111]/hook'],
  ['https://[::ffff:8.8.8.8]/hook', 'https://[::ffff:808:808]/hook'],
  ['https://[2002:808:808::1]/hook', 'https://[2002:808:808::1]/hook'],
  ['https://bücher.example.de/hook', 'https://xn--bcher-kva.example.de/hook'],
  ['https://local.example.com/hook', 'https://local.example.com/hook'],
  ['https://172.32.0.1/hook', 'https://172.32.0.1/hook'],
];

describe('checkWebhookUrl', () => {
  it('has a table of at least 30 refused URLs', () => {
    expect(refused.length).toBeGreaterThanOrEqual(30);
  });

  it.each(refused)('refuses %s (%s)', (url, reason) => {
    const result = checkWebhookUrl(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it.each(accepted)('accepts %s as %s', (url, normalised) => {
    expect(checkWebhookUrl(url)).toEqual({ ok: true, url: normalised });
  });

  describe('with allowInsecure (local work)', () => {
    it.each([
      ['http://localhost:3000/hook', 'http://localhost:3000/hook'],
      ['http://127.0.0.1:8080/hook', 'http://127.0.0.1:8080/hook'],
      ['https://127.1/hook', 'https://127.0.0.1/hook'],
      ['http://[::1]:9000/hook', 'http://[::1]:9000/hook'],
      ['http://app.localhost/hook', 'http://app.localhost/hook'],
      ['http://hooks.example.com/hook', 'http://hooks.example.com/hook'],
    ])('accepts %s', (url, normalised) => {
      expect(checkWebhookUrl(url, { allowInsecure: true })).toEqual({ ok: true, url: normalised });
    });

    it.each([
      'http://10.0.4.17/hooks',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://printer.local/hook',
      'http://metadata.google.internal/',
      'ftp://localhost/hook',
      'http://user:pass@localhost/hook',
      // Forms that carry a loopback address but are routed elsewhere are not this host.
      'http://[64:ff9b::127.0.0.1]/hook',
      'http://[64:ff9b::7f00:1]/hook',
      'http://[2002:7f00:1::]/hook',
      'http://[::127.0.0.1]/hook',
    ])('still refuses %s', (url) => {
      expect(checkWebhookUrl(url, { allowInsecure: true }).ok).toBe(false);
    });
  });
});

describe('nonPublicAddressRange (delivery re-checks resolved addresses with it)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['169.254.169.254', 'metadata'],
    ['::1', 'loopback'],
    ['::ffff:192.168.0.1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
  ])('names the range of %s', (address, word) => {
    expect(nonPublicAddressRange(address)).toContain(word);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e'])('passes %s', (address) => {
    expect(nonPublicAddressRange(address)).toBeNull();
  });

  it('refuses what is not an address', () => {
    expect(nonPublicAddressRange('example.com')).toBe('not an IP address');
  });
});

describe('address parsers', () => {
  it('reads every inet_aton notation of IPv4', () => {
    const loopback = 0x7f000001;
    for (const text of ['127.0.0.1', '127.1', '127.0.1', '2130706433', '0x7f000001', '0177.0.0.1', '0x7f.1']) {
      expect(parseIpv4(text), text).toBe(loopback);
    }
    for (const text of ['256.0.0.1', '1.2.3.4.5', '127.0.0.0xg', 'abc', '', '08.0.0.1', '1.16777216']) {
      expect(parseIpv4(text), text).toBeNull();
    }
  });

  it('reads IPv6 with compression and dotted tails', () => {
    expect(parseIpv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIpv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(parseIpv6('fe80::')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 0]);
    for (const text of ['1::2::3', '1:2:3:4:5:6:7:8:9', '::g', '1:2:3:4:5:6:7', 'fe80::1%eth0', '::1.2.3']) {
      expect(parseIpv6(text), text).toBeNull();
    }
  });
});

describe('urlForMessage (what a refusal repeats of the URL)', () => {
  it.each([
    ['https://hooks.example.com/ocs?x=1#f', 'https://hooks.example.com/ocs?x=1#f'],
    ['https://user:pw@hooks.example.com/ocs', 'https://hooks.example.com/ocs'],
    ['https://token@Hooks.Example.com', 'https://hooks.example.com/'],
    ['https://a@b:pw@hooks.example.com/x', 'https://hooks.example.com/x'],
    // Not read with credentials by the parser: the scheme, then what follows the last `@`.
    ['https://user:pw@hooks.example.com:99999/x', 'https://…@hooks.example.com:99999/x'],
    ['https://user:pw@[::1/x', 'https://…@[::1/x'],
    ['https:\\\\user:pw@hooks.example.com:99999\\x', 'https:\\\\…@hooks.example.com:99999\\x'],
    ['https://user:SE/CRET@hooks.example.com/x', 'https://…@hooks.example.com/x'],
    ['https://user:SE?CRET@hooks.example.com/x', 'https://…@hooks.example.com/x'],
    ['https://user:12#SECRET@hooks.example.com/', 'https://…@hooks.example.com/'],
    ['user:SECRET@hooks.example.com/x', 'user:…@hooks.example.com/x'],
    ['blob:https://user:SECRET@hooks.example.com/x', 'blob:…@hooks.example.com/x'],
    ['mailto:user:SECRET@hooks.example.com', 'mailto:…@hooks.example.com'],
    ['not a url @ all', '…@ all'],
    ['not a url', 'not a url'],
  ])('%s is shown as %s', (raw, shown) => {
    expect(urlForMessage(raw)).toBe(shown);
    expect(urlForMessage(raw)).not.toMatch(/SECRET|pw/);
  });
});
