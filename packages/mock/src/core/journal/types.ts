/**
 * The request journal's entries, typed by operation from the generated types of @ocs/sdk:
 * `mock.requests.of('createCampaign')` has that operation's path parameters, query names,
 * request body, and answers by documented status.
 */
import type { operations } from '@ocs/sdk/types';
import type { OperationId } from '../api-types.ts';
import type { FaultKind } from '../faults.ts';

type Op<Id extends OperationId> = operations[Id];

type PathParamsIn<O> = O extends { parameters: { path: infer P } } ? { [K in keyof P]: string } : Record<string, never>;

type QueryIn<O> = O extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? Record<string, never>
    : { [K in keyof NonNullable<Q>]?: string }
  : Record<string, never>;

type BodyIn<O> = O extends { requestBody?: infer R }
  ? [NonNullable<R>] extends [never]
    ? undefined
    : NonNullable<R> extends { content: { 'application/json': infer B } }
      ? B
      : undefined
  : undefined;

type Responses<O> = O extends { responses: infer R } ? R : never;
type StatusIn<O> = Extract<keyof Responses<O>, number>;
type BodyOut<O, S extends StatusIn<O>> = Responses<O>[S] extends { content: { 'application/json': infer B } }
  ? B
  : undefined;

/** An answer of the operation: one member per documented status, so `status` narrows `body`. */
export type RecordedResponse<Id extends OperationId> = {
  [S in StatusIn<Op<Id>>]: {
    status: S;
    /** Lower-case names. */
    headers: Record<string, string>;
    /** The parsed JSON body (its text when it is not JSON; undefined when there is none). */
    body: BodyOut<Op<Id>, S>;
  };
}[StatusIn<Op<Id>>];

/** What every entry has, whatever the operation. */
interface EntryBase {
  /** Arrival order since the mock was created or last reset: 1, 2, 3... */
  seq: number;
  /** `GET`, `POST`... */
  method: string;
  /**
   * The path as requested (percent-encoded as sent), under `/v1` (`/v1/campaigns/3c9e...`),
   * without the query.
   */
  path: string;
  /**
   * The request headers, lower-case names. `authorization` (and `proxy-authorization`,
   * `cookie`) are redacted: `Bearer [redacted]`.
   */
  headers: Record<string, string>;
  /**
   * What went wrong on purpose: `networkError` and `hang` left no answer; `truncate` cut off
   * the answer recorded in `response`. Null for a complete answer, or while in flight.
   */
  fault: FaultKind | null;
  /** When the request arrived, ISO 8601, by the mock's clock (the sandbox clock). */
  time: string;
  /**
   * Milliseconds until the answer or the fault (for `hang`: until the client gave up, or the
   * mock let it go); null while in flight.
   */
  durationMs: number | null;
}

/** A request to `operationId`. */
export interface RecordedRequest<Id extends OperationId = OperationId> extends EntryBase {
  operationId: Id;
  /** Path parameters by the document's names. */
  params: PathParamsIn<Op<Id>>;
  /** Query parameters as sent (text), by the document's names. */
  query: QueryIn<Op<Id>>;
  /**
   * The request body, parsed (its text when it is not JSON; undefined when there is none).
   * Typed as the document's body: a request the mock refused may not match it. A body over
   * the API's 1 MB limit (answered `413 PAYLOAD_TOO_LARGE`) is neither read past the limit
   * nor kept: its `body` is the text `'[not kept: over the 1 MB body limit]'`.
   */
  body: BodyIn<Op<Id>> | undefined;
  /** The answer; null while in flight, and after a `networkError` or `hang`. */
  response: RecordedResponse<Id> | null;
}

/** A request under the base URL that matches no operation (the mock answered `404`). */
export interface UnmatchedRequest extends EntryBase {
  operationId: null;
  params: Record<string, never>;
  query: Record<string, string>;
  /** As `RecordedRequest`'s `body` (over 1 MB: not kept). */
  body: unknown;
  response: { status: number; headers: Record<string, string>; body: unknown } | null;
}

/** Any entry of the journal: narrow it by `operationId`. */
export type OcsMockRequest = { [Id in OperationId]: RecordedRequest<Id> }[OperationId] | UnmatchedRequest;

/**
 * `mock.requests`: every request the mock served under its base URL, oldest first, the last
 * `limit` of them (option `journal: { limit }`, default 1,000). Cleared by `reset()`; an erased
 * lead (`DELETE /v1/leads/{id}`) leaves it as it leaves the service's store.
 */
export interface OcsMockRequests {
  /** Every entry kept, oldest first (a copy of the list; the entries themselves are live). */
  all(): OcsMockRequest[];
  /** The entries of one operation, oldest first, typed by it. */
  of<Id extends OperationId>(operationId: Id): Array<RecordedRequest<Id>>;
  /** The latest entry (of `operationId` when given). */
  last(): OcsMockRequest | undefined;
  last<Id extends OperationId>(operationId: Id): RecordedRequest<Id> | undefined;
  /** How many entries were dropped, oldest first, to keep `limit` (since the last reset). */
  readonly dropped: number;
  /** How many entries are kept; 0 records nothing. */
  readonly limit: number;
  /** Forgets every entry (`reset()` does it too). */
  clear(): void;
}
