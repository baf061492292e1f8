/**
 * Cross-origin access to the API (`/v1` only), so that a front end served from another
 * origin can call the service and read its answers, errors included.
 *
 * - A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) under `/v1`
 *   answers `204` at once: it needs no API key and counts against no rate limit. An allowed
 *   origin gets the methods, the request headers it asked for (else those the API reads) and
 *   a max age; another one gets no `Access-Control-Allow-*` header, so the browser refuses
 *   the call.
 * - Every other answer under `/v1` to an allowed origin carries `Access-Control-Allow-Origin`
 *   and `Access-Control-Expose-Headers` (the request ID, the rate-limit budget, `Retry-After`,
 *   the deprecation headers and the idempotency ones), whatever its status: a browser reads a
 *   401 or a 429 too.
 * - Answers under `/v1` carry `Vary: Origin`, since they differ by origin; preflights also
 *   `Access-Control-Request-Headers`, which they reflect.
 *
 * It wraps the whole fetch handler rather than running inside the per-operation pipeline: a
 * preflight names no operation, and answers given before the pipeline (404 for an unknown
 * path, the mock's scenarios) need the headers too. The listener's own error answers, written
 * on the socket, take theirs from `corsHeaders` (see `node/client-errors.ts`).
 *
 * No `Access-Control-Allow-Credentials`: the API authenticates with a bearer key, never a
 * cookie, so a page has no reason to send credentials.
 */

/** Which origins may call the API from a browser. */
export interface CorsPolicy {
  /** `'*'`: any origin; otherwise exact origins such as `https://app.example.com` (no path). */
  origins: '*' | readonly string[];
  /** Told of each preflight refused, so that an operator sees which origin to allow. */
  onRefused?: (origin: string) => void;
}

/**
 * The request headers the API reads (section 5: authentication, idempotency, request IDs):
 * allowed when a preflight asks for none, or for a list that is not one of header names.
 * A preflight that names its headers gets them allowed, as the `cors` package does: the
 * API ignores a header it does not read, and a page's own (`X-Team` in the SDK's
 * `headers`, a tracer's `traceparent`) would otherwise fail the call as a network error,
 * whatever the origin is allowed to do.
 */
export const corsAllowedHeaders = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-ID',
  'X-OCS-Client',
] as const;

/** The response headers a page may read beyond the safelisted ones: exactly those the API sends. */
export const corsExposedHeaders = [
  'X-Request-ID',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Link',
  'Idempotency-Key',
  'Idempotent-Replayed',
] as const;

const allowedMethods = 'GET, POST, PUT, PATCH, DELETE';
/** Seconds a browser may reuse a preflight (Chromium caps it at 7200). */
const preflightMaxAge = '600';

export type FetchHandler = (request: Request) => Promise<Response>;

/** Whether a path is the API's (`/v1` and below): the only paths CORS applies to. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/');
}

/**
 * The CORS headers of an answer (not a preflight) under `/v1` to a request from `origin`:
 * empty for a path outside `/v1`, `Vary` only for a request without `Origin` or from an
 * origin not allowed.
 */
export function corsHeaders(policy: CorsPolicy, origin: string | null, pathname: string): Record<string, string> {
  if (!isApiPath(pathname)) return {};
  if (origin === null || !allows(policy, origin)) return { Vary: 'Origin' };
  return {
    'Access-Control-Allow-Origin': policy.origins === '*' ? '*' : origin,
    'Access-Control-Expose-Headers': corsExposedHeaders.join(', '),
    Vary: 'Origin',
  };
}

/** Wraps a fetch handler: preflights under `/v1` are answered, other answers there get the headers. */
export function cors(policy: CorsPolicy): (handler: FetchHandler) => FetchHandler {
  return (handler) => async (request) => {
    const { pathname } = new URL(request.url);
    if (!isApiPath(pathname)) return handler(request);
    const origin = request.headers.get('Origin');
    if (origin !== null && request.method === 'OPTIONS' && request.headers.has('Access-Control-Request-Method')) {
      return preflight(policy, origin, request.headers.get('Access-Control-Request-Headers'));
    }
    const response = await handler(request);
    // A network error (`Response.error()`: the mock's connection reset) has no headers to add
    // and cannot be copied; it is passed on as it is. Told by its status 0, not its `type`:
    // @hono/node-server's lightweight Response turns into a full one (its body a stream,
    // written through the slow path) when `type` is read; its status is kept as it is.
    if (response.status === 0) return response;
    return withHeaders(response, corsHeaders(policy, origin, pathname));
  };
}

/** A comma-separated list of header names (RFC 9110 tokens), as browsers send in a preflight. */
const headerNameList = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
/** Longer lists are not reflected (browsers send a few names; this bounds the answer's size). */
const maxRequestedHeaders = 2048;

function preflight(policy: CorsPolicy, origin: string, requested: string | null): Response {
  // The answer depends on the requested headers too: a cache must not reuse it for others.
  const vary = 'Origin, Access-Control-Request-Headers';
  if (!allows(policy, origin)) {
    policy.onRefused?.(origin);
    return new Response(null, { status: 204, headers: { Vary: vary } });
  }
  const names = requested?.trim() ?? '';
  const reflected = names.length <= maxRequestedHeaders && headerNameList.test(names);
  return new Response(null, {
    status: 204,
    headers: {
      'Access-Control-Allow-Origin': policy.origins === '*' ? '*' : origin,
      'Access-Control-Allow-Methods': allowedMethods,
      'Access-Control-Allow-Headers': reflected ? names : corsAllowedHeaders.join(', '),
      'Access-Control-Max-Age': preflightMaxAge,
      Vary: vary,
    },
  });
}

function allows(policy: CorsPolicy, origin: string): boolean {
  return policy.origins === '*' || policy.origins.includes(origin);
}

/** The answer with `headers` added (`Vary` appended to any the answer has). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const names = Object.keys(headers);
  if (names.length === 0) return response;
  // A Response from fetch() or Response.error() has immutable headers: copy it then.
  let target = response;
  try {
    applyHeaders(target.headers, headers);
  } catch {
    target = new Response(response.body, response);
    applyHeaders(target.headers, headers);
  }
  return target;
}

function applyHeaders(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'Vary') target.append(name, value);
    else target.set(name, value);
  }
}

/**
 * Origins as given on a command line or in an environment variable: repeated and/or
 * comma-separated, each `scheme://host[:port]` without a path, or `*` alone for any. Throws a
 * `TypeError` naming the value that is no origin, or saying that `*` came with named origins:
 * the one who wrote `*, https://app.example.com` meant one of the two, and `*` would let any
 * page in where a list was meant.
 */
export function parseCorsOrigins(values: readonly string[]): '*' | string[] {
  const origins = values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');
  if (origins.includes('*')) {
    const named = origins.filter((value) => value !== '*');
    if (named.length === 0) return '*';
    throw new TypeError(
      `* (any origin) cannot be mixed with named origins (${named.join(', ')}): give * alone, or only the origins.`,
    );
  }
  return [
    ...new Set(
      origins.map((value) => {
        let url: URL | undefined;
        try {
          url = new URL(value);
        } catch {
          url = undefined;
        }
        // Nothing after the authority but an optional `/`: a path would never match an Origin.
        const rest = value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
        if (!url || !/^https?:$/.test(url.protocol) || url.username || (rest !== '' && rest !== '/')) {
          throw new TypeError(`'${value}' is not an origin: write scheme://host[:port], e.g. http://localhost:5173.`);
        }
        return url.origin;
      }),
    ),
  ];
}
