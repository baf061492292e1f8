/**
 * The path and query of a request's URL, as `new URL(href)` reads them, without the URL
 * parser for the URLs requests nearly always have. The engine needs both for every request
 * the journal records or a scenario may act on; on ocs-mock, parsing the URL (which the CORS
 * layer in front of the engine parses once already) was about 0.9 µs a request under load,
 * a quarter of what the journal still cost once its own work was deferred to its reads.
 *
 * A request's URL is serialized already (the `Request` constructor parsed it; on ocs-mock,
 * @hono/node-server's fast path passes on only a target of plain characters and no dot
 * segment). The parser leaves such a URL as it is: an http(s) URL whose host is plain,
 * whose path and query hold only unreserved and sub-delim characters, `:`, `@` and `/`
 * (the query also `?`), with no dot segment and no fragment, is split here by hand; any
 * other (a `%`, a quote, a backslash, a `#`, a space...) goes to the parser. Agreement with
 * the parser is tested (test/url-parts.test.ts).
 */

export interface UrlParts {
  /** As `URL.pathname`. */
  readonly pathname: string;
  /** As `URL.search`: `?` and the query, or '' for none (an empty query included). */
  readonly search: string;
}

/** Scheme and host as the serializer writes them (lower case; IPv6 in brackets); the path; the query. */
const plainUrl = /^https?:\/\/[a-z0-9.\-:[\]]+\/[A-Za-z0-9\-._~!$&()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?]*)?$/;

/** A `.` or `..` segment, which the parser resolves. */
const dotSegment = /\/\.\.?(?:\/|$)/;

export function urlParts(href: string): UrlParts {
  if (plainUrl.test(href)) {
    // The path starts at the first `/` after `scheme://` (the host has none), the query at the first `?`.
    const pathStart = href.indexOf('/', href.indexOf(':') + 3);
    const queryStart = href.indexOf('?', pathStart);
    const pathname = queryStart === -1 ? href.slice(pathStart) : href.slice(pathStart, queryStart);
    if (!dotSegment.test(pathname)) {
      return { pathname, search: queryStart === -1 || queryStart === href.length - 1 ? '' : href.slice(queryStart) };
    }
  }
  const { pathname, search } = new URL(href);
  return { pathname, search };
}
