/**
 * The MSW handler the mock answers its own routes with: MSW's `HttpHandler`, matching as it
 * does, without reading cookies.
 *
 * `HttpHandler.parse` reads every request's cookies (its `Cookie` header, and MSW's cookie
 * store through tough-cookie) to hand them to resolvers. The mock's application reads none:
 * it authenticates by API key. Reading them was about 3 ms of a new mock's first answer
 * (tough-cookie compiles its IPv6 expression on first use) and work on every request after.
 * Overrides (`mock.http`, `mock.use()`) are MSW's own handlers and still get their cookies.
 */
import { HttpHandler, type HttpResponseResolver, matchRequestUrl, type Path } from 'msw';

type ParseArgs = Parameters<HttpHandler['parse']>[0];

export class AppHandler extends HttpHandler {
  readonly #path: Path;

  /** `method`: as MSW's, `/.+/` for every method (what `http.all` gives). */
  constructor(method: 'GET' | RegExp, path: Path, resolver: HttpResponseResolver) {
    super(method, path, resolver);
    this.#path = path;
  }

  /** Whether this handler answers `request`, by its method and URL as MSW matches them (`mock.fetch`). */
  handles(request: Request): boolean {
    const { method } = this.info;
    if (method instanceof RegExp ? !method.test(request.method) : method !== request.method) return false;
    return matchLeniently(request.url, this.#path).matches;
  }

  override async parse(args: ParseArgs): ReturnType<HttpHandler['parse']> {
    const match = matchLeniently(args.request.url, this.#path, args.resolutionContext?.baseUrl);
    return { match, cookies: {} };
  }
}

/**
 * MSW's match of `url` against `path`, for any URL a client can send. MSW decodes the path
 * parameters it matches (`decodeURIComponent`), which throws on an escape that is no UTF-8
 * (`/v1/leads/x%FF`): `mock.fetch` rejected with a `URIError`, and under `setupServer` MSW
 * answered its own 500, where the service and ocs-mock answer the API's 404. Such a URL is
 * matched as if its `%` were literal (`%25`): the route is the same, and the application,
 * which reads the request's own URL, answers it as the service does.
 */
function matchLeniently(url: string, path: Path, baseUrl?: string): ReturnType<typeof matchRequestUrl> {
  const parsed = new URL(url);
  try {
    return matchRequestUrl(parsed, path, baseUrl);
  } catch (error) {
    if (!(error instanceof URIError)) throw error;
    parsed.pathname = parsed.pathname.replaceAll('%', '%25');
    return matchRequestUrl(parsed, path, baseUrl);
  }
}
