/**
 * The connect-time half of the webhook SSRF guard: every address a webhook's host name
 * resolves to must be public (`nonPublicAddressRange`), and the check sits in the socket's
 * own `lookup`, so the addresses checked are the very addresses connected to. A name that
 * answered a public address at registration and a private one now (DNS rebinding) is
 * refused now; there is no second resolution between the check and the connection for an
 * attacker's short-TTL record to change.
 *
 * Node skips `lookup` for IP-literal hosts; those are checked on the URL, by
 * `checkWebhookUrl`, before any request is made.
 */
import dns, { type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { nonPublicAddressRange, type WebhookUrlOptions } from '../domain/webhook-url.ts';

/** Every address a host name resolves to. Injectable so tests never ask a real DNS server. */
export type ResolveAllAddresses = (hostname: string) => Promise<readonly LookupAddress[]>;

/** The operating system's resolver (getaddrinfo, hence /etc/hosts too), all answers in its order. */
export const resolveWithSystemDns: ResolveAllAddresses = (hostname) =>
  dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A target the guard will not connect to; its message is the attempt's `error`. */
export class TargetRefusedError extends Error {
  constructor(reason: string) {
    super(`target refused: ${reason}`);
    this.name = 'TargetRefusedError';
  }
}

/**
 * Throws `TargetRefusedError` unless every one of `addresses` is public. ANY non-public
 * answer refuses the whole name: with several answers, which one a connection uses (and
 * falls back to) is not ours to predict, so a single private one is enough to reach it.
 * `allowInsecure` lets loopback through and nothing else (see `nonPublicAddressRange`).
 *
 * @example
 * assertPublicAddresses('hooks.example.com', [{ address: '93.184.216.34', family: 4 }]); // passes
 * assertPublicAddresses('evil.example', [{ address: '10.0.0.1', family: 4 }]); // throws '... a private address'
 */
export function assertPublicAddresses(
  hostname: string,
  addresses: readonly LookupAddress[],
  options: WebhookUrlOptions = {},
): void {
  if (addresses.length === 0) throw new TargetRefusedError(`${hostname} resolves to no address`);
  for (const { address } of addresses) {
    const range = nonPublicAddressRange(address, options);
    if (range !== null) throw new TargetRefusedError(`${hostname} resolves to ${address}, ${range}`);
  }
}

/**
 * A `lookup` for `net.connect` / an `http.Agent` that resolves with `resolve`, refuses the
 * connection unless every answer is public, and hands the socket exactly the answers it
 * checked (only narrowed to the family the socket asked for).
 */
export function createGuardedLookup(resolve: ResolveAllAddresses, options: WebhookUrlOptions = {}): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family = familyNumber(lookupOptions.family);
    resolve(hostname).then(
      (addresses) => {
        let checked: readonly LookupAddress[];
        try {
          assertPublicAddresses(hostname, addresses, options);
          checked = family === 0 ? addresses : addresses.filter((answer) => answer.family === family);
          if (checked.length === 0) throw new TargetRefusedError(`${hostname} has no IPv${family} address`);
        } catch (error) {
          callback(error as Error, '');
          return;
        }
        const [first] = checked as [LookupAddress];
        if (lookupOptions.all === true) callback(null, [...checked]);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

function familyNumber(family: dns.LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/**
 * The registration-time check of a webhook's host (`AppServices.checkWebhookHost`): the
 * reason it resolves to a non-public address, or null. A name that does not resolve now is
 * let through: DNS may be down or the record not yet published, and every delivery checks
 * again at connect time anyway. IP literals were checked with the URL already.
 */
export function webhookHostCheck(resolve: ResolveAllAddresses, options: WebhookUrlOptions = {}) {
  return async (hostname: string): Promise<string | null> => {
    if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return null;
    let addresses: readonly LookupAddress[];
    try {
      addresses = await resolve(hostname);
    } catch {
      return null;
    }
    try {
      assertPublicAddresses(hostname, addresses, options);
      return null;
    } catch (error) {
      if (error instanceof TargetRefusedError) return error.message.replace(/^target refused: /, '');
      throw error;
    }
  };
}
