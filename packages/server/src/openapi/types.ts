/**
 * Types of the API, derived from the generated OpenAPI types of @ocs/sdk, so that every
 * handler is checked against the document: its inputs, and the statuses and bodies it may
 * answer.
 */
import type { components, operations } from '@ocs/sdk/types';

export type Schemas = components['schemas'];
export type OperationId = keyof operations;
export type ErrorCode = Schemas['ErrorCode'];

type Operation<K extends OperationId> = operations[K];
type Defined<T> = Exclude<T, undefined | never>;

export type PathParams<K extends OperationId> = Operation<K>['parameters'] extends { path: infer P }
  ? Defined<P>
  : Record<string, never>;
export type QueryParams<K extends OperationId> = Operation<K>['parameters'] extends { query?: infer Q }
  ? [Q] extends [never]
    ? Record<string, never>
    : Defined<Q>
  : Record<string, never>;
export type RequestBody<K extends OperationId> =
  Operation<K> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : undefined;

type Responses<K extends OperationId> = Operation<K>['responses'];
type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 207>;
type BodyOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The answers a handler may give: one documented 2xx status with its body. */
export type SuccessResponse<K extends OperationId> = {
  [S in SuccessStatus<K>]: { status: S; body: BodyOf<Responses<K>[S]>; headers?: Record<string, string> };
}[SuccessStatus<K>];
