/**
 * Where the browser goes once an account is connected: the link's `redirect_url`, with the
 * account's ID added as the query parameter `account_id` (after the URL's own parameters,
 * before its fragment), so that the integrator's page knows which account it got without
 * listing them. Only `http:` and `https:` URLs are followed: `redirect_url` is any URI to
 * the document (`format: uri`), and a scheme such as `javascript:` or `data:` is nowhere a
 * browser should be sent; the page naming the account is shown instead.
 */

function webUrl(redirectUrl: string | null): URL | null {
  if (redirectUrl === null || !URL.canParse(redirectUrl)) return null;
  const url = new URL(redirectUrl);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
}

/** The `Location` to send the browser to after connecting `accountId`; null: show the page instead. */
export function redirectLocation(redirectUrl: string | null, accountId: string): string | null {
  const url = webUrl(redirectUrl);
  // Where the page's `form-action` could not allow it (a link made before such URLs were refused).
  if (url === null || redirectOrigin(redirectUrl) === null) return null;
  // Appended as text: `searchParams` would write the URL's other parameters again in its own encoding.
  const added = `account_id=${encodeURIComponent(accountId)}`;
  url.search = url.search === '' ? added : `${url.search.slice(1)}&${added}`;
  return url.href;
}

/**
 * The origin the form's submission may be redirected to, as a `form-action` source (its
 * text can hold nothing but scheme, host and port); null when there is none.
 */
export function redirectOrigin(redirectUrl: string | null): string | null {
  const origin = webUrl(redirectUrl)?.origin ?? null;
  return origin !== null && /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(origin) ? origin : null;
}
