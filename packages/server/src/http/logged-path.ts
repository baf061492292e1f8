/**
 * The path as an access line shows it: the server's own words and the IDs it issues, never
 * what a caller typed in their place.
 *
 * - A connect link's token is the link's credential (`/connect/{token}`, `src/connect/`):
 *   only its first characters are logged (`/connect/cl_6MvC…`), enough to tell links apart,
 *   far too few to use one. Any path under `/connect/`, routed or not: a link with a trailing
 *   slash or a word a mail client glued to it reaches the 404, which logged it whole (found
 *   by a review). What is not a token there (`/connect/maya@acme.example`) is `[redacted]`.
 * - Elsewhere a segment is logged as it came only when it is a word of the server's paths (a
 *   literal segment of an operation's route, `v1`, the documents', `/docs`') or an ID as the
 *   API issues them in paths (a UUID, a step number). Anything else is `[redacted]`: an email
 *   typed where a lead's ID goes (`/v1/leads/maya@acme.example`), a LinkedIn profile URL, a
 *   name. A caller's mistake must not put a lead's data in the log, which decision 0003 keeps
 *   free of it (found by an attack on erasure, then a review).
 */
import { docsPaths } from '../docs/docs-route.ts';
import { operationTable } from '../openapi/document.ts';
import { servedDocuments } from '../openapi/served.ts';

/** Where the connect links' pages are (`src/connect/connect-route.ts` routes them). */
export const connectPrefix = '/connect/';
const keptCharacters = 7;
const redacted = '[redacted]';

const pathWords = new Set(
  ['/v1', ...operationTable.map((operation) => operation.path), ...Object.keys(servedDocuments), ...docsPaths]
    .flatMap((path) => path.split('/'))
    .filter((segment) => segment !== '' && !segment.startsWith('{')),
);
const uuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** A step's number: an int32 (`step_id`), at most 10 digits; a longer run (a phone number) is the caller's. */
const number = /^\d{1,10}$/;
/** A UUID or a step number: tested by length first. */
const isPathId = (segment: string) => (segment.length === 36 ? uuid.test(segment) : number.test(segment));
/**
 * A path every segment of which is kept, in one expression: this runs for every request, and
 * the segment by segment walk took about four times as long (0.55 against 0.13 µs a call here).
 */
const allKept = new RegExp(
  `^(?:/(?:${[...pathWords].map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|${uuid.source.slice(1, -1)}|${number.source.slice(1, -1)})?)*$`,
);
const tokenStart = /^cl_[A-Za-z0-9]*$/;

export function loggedPath(pathname: string): string {
  if (pathname.startsWith(connectPrefix)) {
    const rest = pathname.slice(connectPrefix.length);
    const token = rest.split('/', 1)[0] ?? '';
    if (!tokenStart.test(token)) return `${connectPrefix}${redacted}`;
    const shown = token.length <= keptCharacters ? token : `${token.slice(0, keptCharacters)}…`;
    // What follows the token (a word a mail client glued on after a slash) is the caller's.
    const tail = rest.slice(token.length);
    return `${connectPrefix}${shown}${tail === '' || tail === '/' ? tail : `/${redacted}`}`;
  }
  if (allKept.test(pathname)) return pathname;
  let out: string | undefined;
  for (let start = 0; start <= pathname.length;) {
    const slash = pathname.indexOf('/', start);
    const end = slash === -1 ? pathname.length : slash;
    const segment = pathname.slice(start, end);
    const kept = segment === '' || pathWords.has(segment) || isPathId(segment);
    if (!kept && out === undefined) out = pathname.slice(0, start);
    if (out !== undefined) out += (kept ? segment : redacted) + (slash === -1 ? '' : '/');
    start = end + 1;
  }
  return out ?? pathname;
}
