/**
 * The headers of every answer under `/connect/`. The token in the URL is the credential, so
 * nothing may keep or pass it on: no cache (`no-store`), no `Referer` to the next page or to
 * `redirect_url` (`no-referrer`), no framing (a page framed elsewhere could be clicked
 * through unseen). The pages run no script; their one inline stylesheet is allowed by its
 * hash, and the form may only be sent to this server, and on to the link's `redirect_url`:
 * browsers check `form-action` on the redirect a submission gets too.
 */
import { pageStyleHash } from './page-style.ts';

/**
 * The `Content-Security-Policy` of a page. `formTarget`: the origin a submission of its form
 * may be redirected to (the link's `redirect_url`), when it has one.
 */
export function contentSecurityPolicy(formTarget: string | null = null): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${pageStyleHash}'`,
    `form-action 'self'${formTarget === null ? '' : ` ${formTarget}`}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Every page's headers; `formTarget` as for `contentSecurityPolicy`. */
export function pageHeaders(formTarget: string | null = null): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'Content-Security-Policy': contentSecurityPolicy(formTarget),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}
