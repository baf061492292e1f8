/**
 * The path as an access line shows it. A connect link's token is the link's credential
 * (`/connect/{token}`, `src/connect/`): only its first characters are logged
 * (`/connect/cl_6MvC…`), enough to tell links apart, far too few to use one. Any path under
 * `/connect/`, routed or not: a link with a trailing slash or a word a mail client glued to
 * it reaches the 404, which logged it whole (found by a review).
 */
/** Where the connect links' pages are (`src/connect/connect-route.ts` routes them). */
export const connectPrefix = '/connect/';
const keptCharacters = 7;

export function loggedPath(pathname: string): string {
  if (!pathname.startsWith(connectPrefix)) return pathname;
  const rest = pathname.slice(connectPrefix.length);
  return rest.length <= keptCharacters ? pathname : `${connectPrefix}${rest.slice(0, keptCharacters)}…`;
}
