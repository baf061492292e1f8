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
    return matchRequestUrl(new URL(request.url), this.#path).matches;
  }

  override async parse(args: ParseArgs): ReturnType<HttpHandler['parse']> {
    const match = matchRequestUrl(new URL(args.request.url), this.#path, args.resolutionContext?.baseUrl);
    return { match, cookies: {} };
  }
}
