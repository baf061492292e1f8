/**
 * Where the browser goes once an account is connected: the link's `redirect_url`, with the
 * account's ID added as the query parameter `account_id` (after the URL's own parameters,
 * before its fragment), so that the integrator's page knows which account it got without
 * listing them. Only what the link's creation accepts is followed (`http:` and `https:`
 * URLs that a Content-Security-Policy can name); for an older link holding another, such as
 * `javascript:`, the page naming the account is shown instead.
 */

import { connectRedirectProblem } from '../domain/connect-links.ts';

/**
 * `redirectUrl` parsed, when the page can send the browser there: a URL the link's creation
 * accepts (`connectRedirectProblem`), whose origin a `form-action` source can name (its text
 * holds nothing but scheme, host and port). Null for a link made before such URLs were refused.
 */
function followable(redirectUrl: string | null): URL | null {
  if (redirectUrl === null || connectRedirectProblem(redirectUrl) !== null) return null;
  const url = new URL(redirectUrl);
  return /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(url.origin) ? url : null;
}

/** The `Location` to send the browser to after connecting `accountId`; null: show the page instead. */
export function redirectLocation(redirectUrl: string | null, accountId: string): string | null {
  const url = followable(redirectUrl);
  if (url === null) return null;
  // Appended as text: `searchParams` would write the URL's other parameters again in its own encoding.
  const added = `account_id=${encodeURIComponent(accountId)}`;
  url.search = url.search === '' ? added : `${url.search.slice(1)}&${added}`;
  return url.href;
}

/** The origin the form's submission may be redirected to, as a `form-action` source; null when there is none. */
export function redirectOrigin(redirectUrl: string | null): string | null {
  return followable(redirectUrl)?.origin ?? null;
}
