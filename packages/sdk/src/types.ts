/**
 * Types derived from the generated `operations` of the document: the flat `params` of a
 * named operation, its result, and the error codes it documents. Nothing here exists at
 * runtime.
 */
import type { operations } from './generated/openapi.ts';
import type { BodyDefaults, OperationId } from './generated/operations.ts';
import type { RateLimit } from './rate-limit.ts';

export type { OperationId };

/** `{}`: no keys (written so that lint does not take it for "any non-nullish value"). */
type Empty = Record<never, never>;
type Simplify<T> = { [K in keyof T]: T[K] };
type OrEmpty<T> = [T] extends [never] ? Empty : T;
type Parameters_<Id extends OperationId, In extends 'path' | 'query' | 'header'> = OrEmpty<
  NonNullable<operations[Id]['parameters'][In]>
>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Defaulted<Id extends OperationId> = Id extends keyof BodyDefaults ? BodyDefaults[Id] : never;
type OptionalKeys<T, K> = [K] extends [never] ? T : Omit<T, K & keyof T> & Partial<Pick<T, K & keyof T>>;
type RequestBody<Id extends OperationId> = OptionalKeys<
  OrEmpty<Json<NonNullable<operations[Id]['requestBody']>>>,
  Defaulted<Id>
>;
type Body<Id extends OperationId> = undefined extends operations[Id]['requestBody']
  ? Partial<RequestBody<Id>>
  : RequestBody<Id>;
type Responses<Id extends OperationId> = operations[Id]['responses'];
// 207 is left out: it is the batch form's answer (`POST /leads` with `{ leads }`), typed by
// `importLeads`, so that a named operation's result is its single form's.
type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;

/**
 * The one `params` object of a named operation: its path parameters, query parameters and
 * request body fields side by side, with the API's snake_case names.
 */
export type OperationParams<Id extends OperationId> = Simplify<
  Parameters_<Id, 'path'> & Parameters_<Id, 'query'> & Body<Id>
>;

/** The 2xx response body of an operation (a union when it answers several). */
export type OperationData<Id extends OperationId> = {
  [S in keyof Responses<Id>]: S extends SuccessStatus ? Json<Responses<Id>[S]> : never;
}[keyof Responses<Id>];

type DeclaresIdempotencyKey<Id extends OperationId> = 'Idempotency-Key' extends keyof Parameters_<Id, 'header'>
  ? true
  : false;

/**
 * What a named operation's result carries besides the body: `resultMeta(result)`, whatever the
 * body's fields are called, and getters of the result's prototype (`OcsResult`) for the names
 * the body does not use. `JSON.stringify(result)` and `{ ...result }` see only the API's fields.
 */
export interface ResultMeta {
  /** The request's ID (`X-Request-ID` response header): quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** `RateLimit-*` and `Retry-After` of this response. */
  readonly rateLimit: RateLimit;
  /** HTTP status of the response. */
  readonly status: number;
  /** Response headers. */
  readonly headers: Headers;
}

/**
 * The body `D` with the getters `M` it does not hide: a field of the body wins over a getter
 * of the same name, as it does at runtime (an own property over the prototype's). Each
 * member of a union on its own; the usual case (no name shared) is spelled `D & M`.
 */
export type WithMeta<D, M> = D extends unknown
  ? [Extract<keyof D, keyof M>] extends [never]
    ? D & M
    : D & Omit<M, keyof D>
  : never;

/**
 * A named operation's resolved value: the response body plus the getters of
 * {@link ResultMeta} (and `idempotencyKey`) for the names the body does not use;
 * `resultMeta(result)` has them all, whatever the body's fields.
 */
export type OperationResult<Id extends OperationId> = WithMeta<
  OperationData<Id>,
  ResultMeta &
    (DeclaresIdempotencyKey<Id> extends true
      ? { /** The `Idempotency-Key` sent (yours or the generated one). */ readonly idempotencyKey: string }
      : Empty)
>;

/** Per-call options of a named operation. */
export interface CallOptions {
  /** Aborts the call at once: the current attempt, any wait between retries. */
  signal?: AbortSignal | undefined;
  /**
   * Deadline of the whole call in ms (above 0; `Infinity` for none), across every attempt and
   * wait (default: the client's).
   */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt (default: the client's, 2). */
  maxRetries?: number | undefined;
  /** Headers of this call, after the client's (which they may replace). */
  headers?: Record<string, string> | undefined;
  /**
   * Your own correlation ID, sent as `X-Request-ID` (the service uses it when it matches
   * `^[A-Za-z0-9._:-]{1,128}$`).
   */
  requestId?: string | undefined;
}

/** Options of an operation that declares an `Idempotency-Key` header (today: `createCampaign`). */
export interface IdempotentCallOptions extends CallOptions {
  /**
   * The `Idempotency-Key` (at most 255 characters). Default: a random UUID, generated once
   * per call and reused on every retry.
   */
  idempotencyKey?: string | undefined;
}

/** The options type of an operation. */
export type OperationOptions<Id extends OperationId> =
  DeclaresIdempotencyKey<Id> extends true ? IdempotentCallOptions : CallOptions;

/** Arguments after `client`: `params` is optional when none of its keys is required. */
export type OperationArgs<Id extends OperationId> =
  Empty extends OperationParams<Id>
    ? [params?: OperationParams<Id>, options?: OperationOptions<Id>]
    : [params: OperationParams<Id>, options?: OperationOptions<Id>];

type ErrorCodeIn<R> = Json<R> extends { error: infer C } ? C : never;

/**
 * The error codes an operation documents, every status together.
 *
 * @example
 * type CreateErrors = ErrorCodeOf<'createCampaign'>; // 'VALIDATION_ERROR' | 'IDEMPOTENCY_KEY_REUSED' | ...
 */
export type ErrorCodeOf<Id extends OperationId> = {
  [S in keyof Responses<Id>]: S extends SuccessStatus ? never : ErrorCodeIn<Responses<Id>[S]>;
}[keyof Responses<Id>];

/** The error codes that any operation documents with the HTTP status `S`. */
export type ErrorCodeAtStatus<S extends number> = {
  [Id in OperationId]: S extends keyof Responses<Id> ? ErrorCodeIn<Responses<Id>[S]> : never;
}[OperationId];
