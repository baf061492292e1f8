/**
 * Connect links (`POST /accounts/connect-link`): a one-time URL on this server where a user
 * connects a sender account. This implementation's design: valid for one hour, used once,
 * `{origin}/connect/{token}` with an unguessable token (`cl_` and 24 base62 characters,
 * about 143 bits), so the link itself is the credential and needs no sign-in to open. The
 * page at that URL is `connect/connect-route.ts`. Times are the service clock's (the sandbox
 * clock in sandbox mode), as `expires_at` was written, so advancing it expires links too.
 */
import type { ConnectLinkRecord } from '../store/records.ts';
import { randomBase62 } from './random.ts';

export const connectLinkLifetimeMs = 60 * 60 * 1000;

export function generateConnectToken(): string {
  return `cl_${randomBase62(24)}`;
}

/**
 * Whether `text` has the form of a token this server makes: anything else names no link and
 * is never looked up (a `%00` in a path would otherwise reach PostgreSQL's `text`, which
 * refuses it).
 */
export function isConnectTokenForm(text: string): boolean {
  return /^cl_[A-Za-z0-9]{24}$/.test(text);
}

/** What a link can still do at `now`: be used, or nothing, and why. */
export type ConnectLinkState = 'usable' | 'used' | 'expired';

/** A used link stays used, expired or not: the page then says it was used, which is what happened. */
export function connectLinkState(link: ConnectLinkRecord, now: Date): ConnectLinkState {
  if (link.used_at !== null) return 'used';
  return new Date(link.expires_at).getTime() > now.getTime() ? 'usable' : 'expired';
}

/** When a link created at `now` stops working. */
export function connectLinkExpiry(now: Date): Date {
  return new Date(now.getTime() + connectLinkLifetimeMs);
}

/** The link's URL on this server; `origin` is where the request reached it (`https://host:port`). */
export function connectLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/connect/${encodeURIComponent(token)}`;
}

/**
 * Why `redirectUrl` cannot receive the browser after a link is used, or null when it can. The
 * page sends the browser there with a `303` after its form, which the page's
 * Content-Security-Policy must allow by origin (`form-action`): only an `http` or `https` URL
 * qualifies, and one whose host CSP can name (a name or an IPv4 address; CSP has no form for
 * an IPv6 literal, so Chromium blocked the redirect after the link was used). Refused when
 * the link is created, rather than ignored when it is used (found by a review).
 */
export function connectRedirectProblem(redirectUrl: string): string | null {
  const url = URL.parse(redirectUrl);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return 'must be an http or https URL (the browser is sent there once the account is connected)';
  }
  if (url.hostname.startsWith('[')) return 'must name its host or give an IPv4 address, not an IPv6 address';
  return null;
}
