/**
 * `mock.http`: MSW handlers for one operation at the mock's base URL, typed from the
 * document. They are plain MSW handlers: pass them to `mock.use()` (cleared by `reset()`)
 * or to your MSW server's `use()`.
 *
 * @example
 * mock.use(
 *   mock.http.get('/campaigns/{campaign_id}', ({ params, response }) =>
 *     response(404).json({ success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'Gone.', request_id: 'req_1' }),
 *   ),
 * );
 */
import { http, type HttpHandler } from 'msw';
import type { BaseUrl } from '../base-url.ts';
import type { MatchOperation } from '../operations.ts';
import type { HttpMethod, PathsWith, TypedResolver, TypedResolverInfo, TypedResponseInit } from './types.ts';

export interface HandlerOptions {
  /** Answer once, then step aside (MSW's `once`). */
  once?: boolean;
}

export type TypedHttpMethod<M extends HttpMethod> = <P extends PathsWith<M>>(
  path: P,
  resolver: TypedResolver<P, M>,
  options?: HandlerOptions,
) => HttpHandler;

export type TypedHttp = { [M in HttpMethod]: TypedHttpMethod<M> };

export function typedHttp(
  base: BaseUrl,
  match: MatchOperation,
  defaultHeaders: (request: Request) => Record<string, string>,
): TypedHttp {
  const make =
    <M extends HttpMethod>(method: M): TypedHttpMethod<M> =>
    (path, resolver, options) => {
      const template = String(path);
      const url = `${base.href}${template.replaceAll(/\{(\w+)\}/g, ':$1')}`;
      return http[method](
        url,
        async (info) => {
          // MSW's `:campaign_id` also matches `sequence-templates`: answer only the operation named.
          const apiPath = new URL(info.request.url).pathname.slice(base.path.length);
          if (match(method.toUpperCase(), apiPath)?.path !== template) return undefined;
          const typed = {
            request: info.request,
            params: info.params,
            cookies: info.cookies,
            query: new URL(info.request.url).searchParams,
            response: responseFactory(() => defaultHeaders(info.request)),
          } as unknown as TypedResolverInfo<typeof path, M>;
          return (await resolver(typed)) ?? undefined;
        },
        options,
      );
    };
  return { get: make('get'), post: make('post'), put: make('put'), patch: make('patch'), delete: make('delete') };
}

type Init = TypedResponseInit<unknown> | undefined;

/**
 * `response(status).json(body)`: adds what every answer of the API carries (`X-Request-ID`,
 * `RateLimit-*`) unless the test sets them, so that clients read a complete answer.
 */
function responseFactory(defaultHeaders: () => Record<string, string>) {
  const headersOf = (init: Init, json: boolean) => {
    const headers = new Headers(defaultHeaders());
    if (json) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(init?.headers ?? {})) {
      if (value !== undefined) headers.set(name, String(value));
    }
    return headers;
  };
  const factory = (status: number) => ({
    json: (body: unknown, init?: Init) =>
      new Response(JSON.stringify(body), { status, statusText: init?.statusText, headers: headersOf(init, true) }),
    empty: (init?: Init) =>
      new Response(null, { status, statusText: init?.statusText, headers: headersOf(init, false) }),
  });
  factory.untyped = (response: Response) => response;
  return factory;
}
