/**
 * Registration-time check of a webhook URL (`400 INVALID_WEBHOOK_URL`): HTTPS only, no
 * credentials, and no host that is plainly not public: IP literals in private, loopback,
 * link-local, unique-local, CGNAT, multicast, reserved, unspecified or metadata ranges, and
 * names such as `localhost`, `*.local` or `*.internal`.
 *
 * No DNS lookup happens here (the application is web-standard and a name can change what it
 * resolves to anyway): delivery checks every resolved address again, at connect time, with
 * `nonPublicAddressRange`. This check refuses what is wrong whatever DNS says.
 *
 * The WHATWG URL parser does the heavy lifting on notation: it turns `http://2130706433`,
 * `http://0x7f.1`, `http://0177.0.0.1`, `http://127.1` and percent-encoded or full-width
 * digits into `127.0.0.1`, and compresses IPv6. The ranges are then checked on numbers, so
 * no spelling of an address slips past a string comparison.
 */

export interface WebhookUrlOptions {
  /** `services.config.allowInsecureWebhooks`: also accept `http://` and loopback targets (local work). */
  allowInsecure?: boolean;
}

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** `webhook_url` is at most 2,000 characters (section 8), in the normalised form stored and answered too. */
export const maxWebhookUrlLength = 2000;

/**
 * Checks `raw` and, when it is acceptable, returns its normalised form (`URL.href`), the
 * form stored and compared: `https://Hooks.Example.com` and `https://hooks.example.com/`
 * are one URL.
 *
 * @example
 * checkWebhookUrl('https://hooks.example.com/ocs'); // { ok: true, url: 'https://hooks.example.com/ocs' }
 * checkWebhookUrl('https://[::ffff:127.0.0.1]/'); // { ok: false, reason: '...loopback...' }
 */
export function checkWebhookUrl(raw: string, options: WebhookUrlOptions = {}): WebhookUrlCheck {
  const insecure = options.allowInsecure === true;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('it is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(insecure && url.protocol === 'http:')) {
    return refuse(`the scheme is ${url.protocol.replace(/:$/, '')}, and only https is accepted`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('it carries credentials; remove them and authenticate deliveries with the signing secret');
  }
  if (url.href.length > maxWebhookUrlLength) {
    return refuse(`it is longer than ${maxWebhookUrlLength} characters once normalised (${url.href.length})`);
  }
  // Port 0 names no service: no connection to it can be made (the URL parser keeps it).
  if (url.port === '0') return refuse('its port is 0, which no server listens on');
  const host = url.hostname;
  if (host === '') return refuse('it has no host');
  const address = host.startsWith('[') ? parseIpv6(host.slice(1, -1)) : parseIpv4(host);
  if (address !== null) {
    const range = typeof address === 'number' ? ipv4Range(address) : ipv6Range(address);
    if (range !== null && !(insecure && isThisHostLoopback(address))) {
      return refuse(`${host} is ${range.label}`);
    }
    return { ok: true, url: url.href };
  }
  if (host.startsWith('[')) return refuse(`${host} is not an IPv6 address this check can read`);
  const nameProblem = nonPublicName(host);
  if (nameProblem !== null && !(insecure && isLoopbackName(host))) return refuse(nameProblem);
  return { ok: true, url: url.href };
}

/**
 * `raw` as an answer may repeat it: without the credentials a URL may carry (`https://user:
 * password@host/`), which the refusal names as its reason instead. An answer is kept by
 * whoever receives it (a client's logs, the mock's journal, a proxy): a password the caller
 * put in a URL by mistake is not sent back to all of them.
 *
 * A URL the parser reads with credentials is named without them. Any other text with an `@`
 * may hold them where the parser saw something else: a password with a `/`, `?` or `#`
 * (`https://user:pa/ss@host`, `https://user:12#pass@host`), a URL without its scheme
 * (`user:pass@host`, read as the scheme `user:`), an opaque form (`blob:`, `mailto:`). It is
 * named by its scheme and what follows its last `@`, the part between left out (`…`): less
 * to read in the answer, never the password.
 */
export function urlForMessage(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username !== '' || url.password !== '') {
      url.username = '';
      url.password = '';
      return url.href;
    }
  } catch {
    // Not a URL the parser reads: handled as any other text below.
  }
  const at = raw.lastIndexOf('@');
  if (at < 0) return raw;
  const scheme = /^[a-z][a-z\d+.-]*:[\s/\\]*/i.exec(raw)?.[0] ?? '';
  return `${scheme}…${raw.slice(at)}`;
}

/**
 * The non-public range an IP address (as DNS returns it: dotted IPv4, or IPv6 without
 * brackets) belongs to, or null when it is public. Delivery uses it on resolved addresses.
 * With `allowInsecure`, a loopback address passes too (null), the same rule as
 * `checkWebhookUrl` applies to literal hosts, so the flag means one thing at both checks.
 */
export function nonPublicAddressRange(address: string, options: WebhookUrlOptions = {}): string | null {
  const parsed = address.includes(':') ? parseIpv6(address.replace(/^\[|\]$/g, '')) : parseIpv4(address);
  if (parsed === null) return 'not an IP address';
  const range = typeof parsed === 'number' ? ipv4Range(parsed) : ipv6Range(parsed);
  if (range === null || (options.allowInsecure === true && isThisHostLoopback(parsed))) return null;
  return range.label;
}

/**
 * What `allowInsecure` lets through: this machine's own loopback and nothing else, as an
 * allow-list on the address itself: 127.0.0.0/8, `::1`, and 127.0.0.0/8 written IPv4-mapped
 * (`::ffff:127.0.0.1`, which the local stack delivers to the same loopback). Forms that
 * embed a loopback address but are routed elsewhere (NAT64 `64:ff9b::/96`, 6to4 `2002::/16`,
 * IPv4-compatible `::/96`) are not loopback, whatever address they carry.
 */
function isThisHostLoopback(address: number | number[]): boolean {
  if (typeof address === 'number') return address >>> 24 === 127;
  if (inPrefix(address, v6('::1'), 128)) return true;
  return inPrefix(address, v6('::ffff:0:0'), 96) && (address[6] ?? 0) >>> 8 === 127;
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}

// ---------------------------------------------------------------------------------------
// Names

/** Special-use and private-use suffixes (RFC 6761, 6762, 8375, 9476 and common private TLDs). */
const nonPublicSuffixes = [
  'localhost',
  'local',
  'internal',
  'localdomain',
  'home.arpa',
  'arpa',
  'lan',
  'intranet',
  'corp',
  'home',
  'private',
  'test',
  'invalid',
  'example',
  'onion',
  'alt',
];

/** Cloud metadata service names outside those suffixes (`metadata.google.internal` is already refused). */
const metadataNames = new Set(['metadata.goog', 'metadata.tencentyun.com', 'metadata.platformequinix.com']);

function nonPublicName(host: string): string | null {
  const name = host.toLowerCase().replace(/\.+$/, '');
  if (!name.includes('.')) return `${host} is a single-label host name, not a public one`;
  if (metadataNames.has(name)) return `${host} is a cloud metadata service`;
  const suffix = nonPublicSuffixes.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix !== undefined) return `${host} is under .${suffix}, which is not public`;
  return null;
}

function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

// ---------------------------------------------------------------------------------------
// IPv4

/**
 * An IPv4 address in any notation `inet_aton` accepts (1 to 4 parts; decimal, `0x` hex or
 * `0` octal), as a 32-bit number; null when `text` is not one. URLs arrive already
 * canonical, but the check does not depend on that.
 */
export function parseIpv4(text: string): number | null {
  const parts = text.replace(/\.$/, '').split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255)) return null;
  if (last >= 2 ** (8 * (4 - numbers.length))) return null;
  let address = 0;
  numbers.forEach((n, i) => {
    address += n * 2 ** (8 * (3 - i));
  });
  return address + last;
}

interface Range {
  kind: string;
  label: string;
}

interface Ipv4Block {
  base: number;
  bits: number;
  range: Range;
}

const ipv4 = (text: string) => parseIpv4(text) as number;
const block = (cidr: string, kind: string, label: string): Ipv4Block => {
  const [base = '', bits = '32'] = cidr.split('/');
  return { base: ipv4(base), bits: Number(bits), range: { kind, label } };
};

/** IANA's IPv4 special-purpose registry, plus metadata addresses; the first match names the range. */
const ipv4Blocks: Ipv4Block[] = [
  block('169.254.169.254/32', 'metadata', 'a cloud metadata address'),
  block('100.100.100.200/32', 'metadata', 'a cloud metadata address'),
  block('192.0.0.192/32', 'metadata', 'a cloud metadata address'),
  block('0.0.0.0/8', 'unspecified', 'an unspecified ("this network") address'),
  block('10.0.0.0/8', 'private', 'a private address'),
  block('100.64.0.0/10', 'cgnat', 'a carrier-grade NAT (shared) address'),
  block('127.0.0.0/8', 'loopback', 'a loopback address'),
  block('169.254.0.0/16', 'link-local', 'a link-local address'),
  block('172.16.0.0/12', 'private', 'a private address'),
  block('192.0.0.0/24', 'reserved', 'a reserved (IETF protocol assignments) address'),
  block('192.0.2.0/24', 'documentation', 'a documentation address'),
  block('192.88.99.0/24', 'reserved', 'a reserved (6to4 relay) address'),
  block('192.168.0.0/16', 'private', 'a private address'),
  block('198.18.0.0/15', 'reserved', 'a reserved (benchmarking) address'),
  block('198.51.100.0/24', 'documentation', 'a documentation address'),
  block('203.0.113.0/24', 'documentation', 'a documentation address'),
  block('224.0.0.0/4', 'multicast', 'a multicast address'),
  block('240.0.0.0/4', 'reserved', 'a reserved (or broadcast) address'),
];

function ipv4Range(address: number): Range | null {
  for (const { base, bits, range } of ipv4Blocks) {
    const size = 2 ** (32 - bits);
    if (address >= base && address < base + size) return range;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// IPv6

/** An IPv6 address as eight 16-bit groups (an embedded dotted IPv4 tail included); null when invalid. */
export function parseIpv6(text: string): number[] | null {
  if (text.includes('%')) return null; // zone IDs name a local interface: never public
  let body = text.toLowerCase();
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    const v4 = lastColon < 0 ? null : parseDottedQuad(body.slice(lastColon + 1));
    if (v4 === null) return null;
    tail.push(Math.floor(v4 / 0x10000), v4 % 0x10000);
    // Keep a `::` that precedes the IPv4 tail; drop a single separating `:`.
    body = body.slice(0, lastColon + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if ([...head, ...rest].some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const zeros = new Array<number>(8 - given).fill(0);
  const parse = (group: string) => Number.parseInt(group, 16);
  return [...head.map(parse), ...zeros, ...rest.map(parse), ...tail];
}

function parseDottedQuad(text: string): number | null {
  const parts = text.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p > 255)) return null;
  return parts.reduce((sum, p) => sum * 256 + p, 0);
}

/** Whether the first `bits` bits of `groups` equal those of `prefix` (given as groups). */
function inPrefix(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const v6 = (text: string) => parseIpv6(text) as number[];
const embeddedIpv4 = (high: number, low: number) => high * 0x10000 + low;

/** An embedded IPv4 address is only as public as the address itself. */
function viaIpv4(address: number, form: string): Range | null {
  const range = ipv4Range(address);
  return range === null ? null : { kind: range.kind, label: `${range.label} (${form})` };
}

function ipv6Range(g: number[]): Range | null {
  const [, g1 = 0, g2 = 0, , , , g6 = 0, g7 = 0] = g;
  if (g.every((x) => x === 0)) return { kind: 'unspecified', label: 'the unspecified address' };
  if (inPrefix(g, v6('::1'), 128)) return { kind: 'loopback', label: 'a loopback address' };
  if (inPrefix(g, v6('::ffff:0:0'), 96)) return viaIpv4(embeddedIpv4(g6, g7), 'IPv4-mapped');
  if (inPrefix(g, v6('::'), 96)) return { kind: 'reserved', label: 'an IPv4-compatible address (deprecated)' };
  if (inPrefix(g, v6('::ffff:0:0:0'), 96)) return { kind: 'reserved', label: 'an IPv4-translated address' };
  if (inPrefix(g, v6('64:ff9b::'), 96)) return viaIpv4(embeddedIpv4(g6, g7), 'NAT64');
  if (inPrefix(g, v6('64:ff9b:1::'), 48)) return { kind: 'reserved', label: 'a local-use NAT64 address' };
  if (inPrefix(g, v6('100::'), 64)) return { kind: 'reserved', label: 'a discard-only address' };
  if (inPrefix(g, v6('2001:db8::'), 32)) return { kind: 'documentation', label: 'a documentation address' };
  if (inPrefix(g, v6('2001::'), 23)) {
    return { kind: 'reserved', label: 'a reserved (IETF protocol assignments, Teredo) address' };
  }
  if (inPrefix(g, v6('2002::'), 16)) return viaIpv4(embeddedIpv4(g1, g2), '6to4');
  if (inPrefix(g, v6('3fff::'), 20)) return { kind: 'documentation', label: 'a documentation address' };
  if (inPrefix(g, v6('5f00::'), 16)) return { kind: 'reserved', label: 'a reserved (SRv6) address' };
  if (inPrefix(g, v6('fd00:ec2::254'), 128)) return { kind: 'metadata', label: 'a cloud metadata address' };
  if (inPrefix(g, v6('fc00::'), 7)) return { kind: 'unique-local', label: 'a unique-local address' };
  if (inPrefix(g, v6('fe80::'), 10)) return { kind: 'link-local', label: 'a link-local address' };
  if (inPrefix(g, v6('fec0::'), 10)) return { kind: 'reserved', label: 'a site-local address (deprecated)' };
  if (inPrefix(g, v6('ff00::'), 8)) return { kind: 'multicast', label: 'a multicast address' };
  // Only 2000::/3 is allocated for global unicast; everything else is reserved.
  if (!inPrefix(g, v6('2000::'), 3)) return { kind: 'reserved', label: 'a reserved address' };
  return null;
}
