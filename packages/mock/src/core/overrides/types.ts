/**
 * The types of the typed overrides, from the generated `paths` of @ocs/sdk (openapi-msw's
 * approach): path parameters, query parameters, the request body, and the response body
 * and headers of each documented status.
 */
import type { paths } from '@ocs/sdk/types';
import type { JsonBodyType, StrictRequest } from 'msw';
import type { DeepReadonly } from '../frozen.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The document's paths that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: undefined extends paths[P][M] ? never : P;
}[keyof paths];

export type OperationAt<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;

/** Path parameters as MSW gives them: strings, by the document's names. */
export type PathParamsOf<O> = O extends { parameters: { path: infer A } }
  ? { [K in keyof A]: string }
  : Record<string, never>;

export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type RequestBodyOf<O> = O extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { 'application/json': infer B } }
    ? B
    : null
  : null;

type Responses<O> = O extends { responses: infer R } ? R : never;

/** The statuses the document lists for the operation. */
export type StatusOf<O> = Extract<keyof Responses<O>, number>;

export type ResponseBodyOf<O, S extends StatusOf<O>> = Responses<O>[S] extends {
  content: { 'application/json': infer B };
}
  ? B
  : never;

export type ResponseHeadersOf<O, S extends StatusOf<O>> = Responses<O>[S] extends { headers: infer H } ? H : never;

/** The query string, with the document's parameter names. */
export interface TypedQuery<Q> {
  get(name: [Q] extends [never] ? string : keyof Q & string): string | null;
  getAll(name: [Q] extends [never] ? string : keyof Q & string): string[];
  has(name: [Q] extends [never] ? string : keyof Q & string): boolean;
}

/** The named keys of `T`, without its index signature (`[name: string]: unknown`). */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** Response headers: the documented ones typed (numbers allowed where the document has them), others free. */
export type TypedHeaders<H> = {
  [K in KnownKeys<H> & string]?: NonNullable<H[K]> extends number ? number | string : string;
} & { [name: string]: string | number | undefined };

export interface TypedResponseInit<H> {
  headers?: TypedHeaders<H>;
  statusText?: string;
}

/**
 * One documented status: its JSON body, or no body. The body may be read-only (it is only
 * serialized): built from `mock.data`, which is (`{ ...mock.data.campaigns[0], name }`).
 */
export interface TypedResponseBuilder<O, S extends StatusOf<O>> {
  json(body: DeepReadonly<ResponseBodyOf<O, S>>, init?: TypedResponseInit<ResponseHeadersOf<O, S>>): Response;
  empty(init?: TypedResponseInit<ResponseHeadersOf<O, S>>): Response;
}

/** `response(status)`: only the statuses the document lists for the operation. */
export interface TypedResponseFactory<O> {
  <S extends StatusOf<O>>(status: S): TypedResponseBuilder<O, S>;
  /** Any `Response`, unchecked: for answers the document does not describe. */
  untyped(response: Response): Response;
}

type AsJsonBody<B> = B extends JsonBodyType ? B : JsonBodyType;

export interface TypedResolverInfo<P extends keyof paths, M extends HttpMethod> {
  /** The request; `await request.json()` is typed as the operation's body. */
  request: StrictRequest<AsJsonBody<RequestBodyOf<OperationAt<P, M>>>>;
  params: PathParamsOf<OperationAt<P, M>>;
  query: TypedQuery<QueryOf<OperationAt<P, M>>>;
  cookies: Record<string, string>;
  response: TypedResponseFactory<OperationAt<P, M>>;
}

/** Returns the answer, or undefined to let the request reach the mock's application. */
export type TypedResolver<P extends keyof paths, M extends HttpMethod> = (
  info: TypedResolverInfo<P, M>,
  // `void`, as in MSW's own resolvers: a resolver that returns nothing lets the request through.
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type
) => Response | undefined | void | Promise<Response | undefined | void>;
