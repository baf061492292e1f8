/**
 * The path as an access line shows it: the API's own words and IDs, never what a caller typed
 * in their place.
 *
 * - A connect link's token is the link's credential (`/connect/{token}`, `src/connect/`):
 *   only its first characters are logged (`/connect/cl_6MvC…`), enough to tell links apart,
 *   far too few to use one. Any path under `/connect/`, routed or not: a link with a trailing
 *   slash or a word a mail client glued to it reaches the 404, which logged it whole (found
 *   by a review).
 * - Any other segment is logged as it came only when it is made of RFC 3986's unreserved
 *   characters (letters, digits, `-`, `.`, `_`, `~`): every route word, document name and ID
 *   the API issues (UUIDs, `acc_em_…`, step numbers) is. Anything else, an email typed where
 *   a lead's ID goes (`/v1/leads/maya@acme.example`, or `%40`), a name with a space, is
 *   `[redacted]`: a caller's mistake must not put a lead's data in the log, which decision
 *   0003 keeps free of it (found by an attack on erasure).
 */
/** Where the connect links' pages are (`src/connect/connect-route.ts` routes them). */
export const connectPrefix = '/connect/';
const keptCharacters = 7;
const unreserved = /^[A-Za-z0-9._~-]*$/;
const redactedSegment = '[redacted]';

export function loggedPath(pathname: string): string {
  if (pathname.startsWith(connectPrefix)) {
    const rest = pathname.slice(connectPrefix.length);
    return rest.length <= keptCharacters ? pathname : `${connectPrefix}${rest.slice(0, keptCharacters)}…`;
  }
  // Most paths keep every segment: no array for them.
  if (unreserved.test(pathname.replaceAll('/', ''))) return pathname;
  return pathname
    .split('/')
    .map((segment) => (unreserved.test(segment) ? segment : redactedSegment))
    .join('/');
}
