/**
 * The typed path API (`client.GET('/campaigns/{campaign_id}', { params })`): openapi-fetch's
 * interface and types, on a runtime of the SDK's own. openapi-fetch's runtime is 2.6 kB
 * min+gzip, more than the rest of the client, and most of it serializes parameter styles
 * this document does not use (its generator refuses them: path parameters are `simple`,
 * query parameters scalars, bodies JSON). This one keeps what openapi-fetch users rely on:
 * `params` (path, query, header), `body`, `headers` (`null` removes one), `parseAs`,
 * per-request `baseUrl`, `fetch`, `middleware` and serializer functions, any other
 * RequestInit (`signal`...), `{ data, error, response }`, and middlewares (`use`, `eject`)
 * with `onRequest`, `onResponse` and `onError` called as openapi-fetch calls them. Query
 * arrays are sent `form`-exploded (`a=1&a=2`) and query objects as `deepObject` (`a[b]=1`),
 * openapi-fetch's defaults; the style options of its serializers are not supported. Unlike
 * openapi-fetch, a call has the client's deadline (`timeoutMs`, with `signal`) over its
 * fetch and the reading of the answer, as the named operations do.
 */
import type { Client, Middleware } from 'openapi-fetch';
import type { ClientInternals } from './client.ts';
import { type Deadline, startDeadline } from './deadline.ts';
import { OcsError, readAnswer } from './errors.ts';
import { mergeHeaders } from './headers.ts';
import { isRetryable } from './retry.ts';

type Loose = Record<string, unknown>;
type Init = Loose & {
  baseUrl?: string;
  signal?: AbortSignal | null;
  /** As openapi-fetch calls it: the Request alone. */
  fetch?: (request: Request) => Promise<Response>;
  /** A named operation's own deadline (src/operation.ts), when it sends through here. */
  deadline?: Deadline;
  headers?: Loose;
  params?: { path?: Loose; query?: Loose; header?: Loose };
  parseAs?: 'json' | 'text' | 'blob' | 'arrayBuffer' | 'stream';
  body?: unknown;
  middleware?: Middleware[];
  querySerializer?: (query: Loose) => string;
  bodySerializer?: (body: unknown, headers: Headers) => unknown;
  pathSerializer?: (path: string, params: Loose) => string;
};
type Hook = Middleware & Loose;

const encode = encodeURIComponent as (value: unknown) => string;

/**
 * The route with its path parameters, each encoded whole: they are scalars (the generator
 * refuses an array, which this would send as `a%2Cb`, in no OpenAPI style). A value that is missing, empty, `.` or `..` would put the request on
 * another route once the URL is normalised (`/campaigns/..` is `/`; `%2e` is a dot too, but
 * `encodeURIComponent` writes `%` as `%25`): refused, as Stripe refuses an empty ID. Both
 * APIs fill their paths with it.
 */
export const fillPath = (template: string, path: Loose): string =>
  template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = encode(path[name] ?? '');
    if (/^\.{0,2}$/.test(value)) throw new OcsError(`Invalid ${name}: "${value}"`);
    return value;
  });

/**
 * `a=1&b=x%20y`, arrays `a=1&a=2`, objects `a[b]=1`; null and undefined left out. Own members
 * only (copies with no prototype), of the query and of an object value (which no operation of
 * the document takes): a member a polluted Object.prototype has is no parameter.
 */
export function serializeQuery(query: Loose): string {
  const parts: string[] = [];
  for (const name in { __proto__: null, ...query }) {
    const value = query[name];
    if (value == null) continue;
    if (Array.isArray(value)) for (const item of value) parts.push(`${name}=${encode(item)}`);
    else if (typeof value === 'object') {
      for (const key in { __proto__: null, ...value }) parts.push(`${name}[${key}]=${encode((value as Loose)[key])}`);
    } else parts.push(`${name}=${encode(value)}`);
  }
  return parts.join('&');
}

/**
 * The path API over the client's internals (src/client.ts): its base URL and headers, the
 * middlewares `use` adds and `eject` removes (in `hooks`, which the named operations read
 * too), `timeoutMs` for each call's deadline, and the transport with `maxRetries`.
 */
export function createPathClient<Paths extends object>(options: ClientInternals): Client<Paths, 'application/json'> {
  const hooks = options.hooks as Hook[];

  async function request(method: string, schemaPath: string, requestInit?: Init) {
    // Own members only (a copy with no prototype), here and in `params`: a polluted
    // Object.prototype's `baseUrl` or `fetch` would send the request, and the key, elsewhere.
    // (`rest` has a prototype again: `signal` and `deadline` are read from the copy.)
    const init = { __proto__: null, ...requestInit } as Init;
    const {
      baseUrl = options.baseUrl,
      fetch,
      headers,
      params = {},
      parseAs = 'json',
      body,
      middleware = [],
      querySerializer = serializeQuery,
      bodySerializer,
      pathSerializer,
      ...rest
    } = init;
    // A named operation sending through here (for the middlewares) brings its own.
    const deadline = init.deadline ?? startDeadline(options.timeoutMs, init.signal);
    try {
      const { path: sent, query, header } = { __proto__: null, ...params } as NonNullable<Init['params']>;
      // `null` as `undefined` (openapi-fetch's reading): a default would take only the latter.
      const path = sent ?? {};
      const url = `${baseUrl.replace(/\/$/, '')}${
        pathSerializer ? pathSerializer(schemaPath, path) : fillPath(schemaPath, path)
      }`;
      const search = querySerializer(query ?? {});
      const given = mergeHeaders(options.headers, headers, header, options.fixed);
      const serialized =
        body === undefined
          ? undefined
          : bodySerializer
            ? bodySerializer(body, given)
            : body instanceof FormData
              ? body
              : given.get('content-type') === 'application/x-www-form-urlencoded'
                ? `${new URLSearchParams(body as Record<string, string>)}`
                : JSON.stringify(body);
      // `redirect: 'follow'`, which openapi-fetch sets, is a Request's default.
      let outgoing = new Request(search ? `${url}?${search}` : url, {
        ...rest,
        method,
        body: serialized as BodyInit | undefined,
        headers: mergeHeaders(
          serialized === undefined || serialized instanceof FormData ? {} : { 'Content-Type': 'application/json' },
          given,
        ),
      });
      const all = [...hooks, ...middleware] as Hook[];
      // onError and onResponse run in reverse order, as openapi-fetch runs them.
      const back = [...all].reverse();
      // Through the client's transport: retries (when the request is safe to send again)
      // within the call's deadline; the route template is for its bookkeeping.
      const send = (request: Request) =>
        options.send(
          request,
          {},
          {
            deadline,
            maxRetries: options.maxRetries,
            retryable: isRetryable(request.method, request.headers.get('idempotency-key')),
            route: `${request.method} ${schemaPath}`,
          },
        );
      const context = {
        schemaPath,
        params,
        id: `${Math.random()}`.slice(2),
        // openapi-fetch's middlewares may send with it, as with fetch.
        options: {
          baseUrl,
          fetch: fetch ?? send,
          parseAs,
        },
      };
      let response: Response | undefined;
      for (const hook of all) {
        const result = await hook.onRequest?.({ ...context, request: outgoing } as never);
        if (result instanceof Request) outgoing = result;
        else if (result instanceof Response) {
          response = result;
          break;
        } else if (result) throw new Error('onRequest: return a Request, a Response or nothing');
      }
      if (!response) {
        try {
          // Raced: a fetch of the caller's own may ignore the signal.
          response = await deadline.race(() => (fetch ? fetch(outgoing) : send(outgoing)));
        } catch (error) {
          let failure: unknown = error;
          for (const hook of back) {
            const result = await hook.onError?.({ ...context, request: outgoing, error: failure } as never);
            if (result instanceof Response) {
              response = result;
              break;
            }
            if (result instanceof Error) failure = result;
            else if (result) throw new Error('onError: return a Response, an Error or nothing', { cause: error });
          }
          if (!response) throw failure;
        }
        for (const hook of back) {
          const result: unknown = await hook.onResponse?.({ ...context, request: outgoing, response } as never);
          if (result instanceof Response) response = result;
          else if (result) throw new Error('onResponse: return a Response or nothing');
        }
      }
      if (
        response.status === 204 ||
        method === 'HEAD' ||
        (response.headers.get('content-length') === '0' &&
          !response.headers.get('transfer-encoding')?.includes('chunked'))
      ) {
        return response.ok ? { data: undefined, response } : { error: undefined, response };
      }
      // A stream is the caller's to read, after the call.
      if (response.ok && parseAs === 'stream') return { data: response.body, response };
      const read = response.ok && parseAs !== 'json' ? (parseAs as 'text') : 'text';
      let content: unknown = await deadline.race(() => (response as Response)[read]());
      if (response.ok) {
        // Every answer of the API is a JSON object: anything else (a proxy's or a captive
        // portal's page) throws the error a named operation throws for it, not a SyntaxError.
        return {
          data: parseAs !== 'json' ? content : content ? readAnswer(response, content as string) : undefined,
          response,
        };
      }
      try {
        content = JSON.parse(content as string);
      } catch {
        // Not JSON: the error is the text.
      }
      return { error: content, response };
    } finally {
      if (!init.deadline) deadline.done();
    }
  }

  const client: Loose = {
    request: (method: string, path: string, init?: Init) => request(method.toUpperCase(), path, init),
    use(...middlewares: Hook[]) {
      for (const middleware of middlewares) {
        if (!middleware) continue;
        if (!(middleware.onRequest || middleware.onResponse || middleware.onError)) {
          throw new Error('Middleware needs onRequest, onResponse or onError');
        }
        hooks.push(middleware);
      }
    },
    eject(...middlewares: Hook[]) {
      for (const middleware of middlewares) {
        const index = hooks.indexOf(middleware);
        if (index >= 0) hooks.splice(index, 1);
      }
    },
  };
  for (const method of 'GET PUT POST DELETE OPTIONS HEAD PATCH TRACE'.split(' ')) {
    client[method] = (path: string, init?: Init) => request(method, path, init);
  }
  return client as unknown as Client<Paths, 'application/json'>;
}
