/**
 * Connect links (`POST /accounts/connect-link`): a one-time URL on this server where a user
 * connects a sender account. This implementation's design: valid for one hour, used once,
 * `{origin}/connect/{token}` with an unguessable token (`cl_` and 24 base62 characters,
 * about 143 bits), so the link itself is the credential and needs no sign-in to open.
 */
import { randomBase62 } from './random.ts';

export const connectLinkLifetimeMs = 60 * 60 * 1000;

export function generateConnectToken(): string {
  return `cl_${randomBase62(24)}`;
}

/** When a link created at `now` stops working. */
export function connectLinkExpiry(now: Date): Date {
  return new Date(now.getTime() + connectLinkLifetimeMs);
}

/** The link's URL on this server; `origin` is where the request reached it (`https://host:port`). */
export function connectLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/connect/${encodeURIComponent(token)}`;
}
