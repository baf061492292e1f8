/**
 * The shape of a route handler, typed from the OpenAPI document by operationId: what it
 * receives (validated path, query, headers and body) and the documented 2xx answers it may
 * give. Route files export partial handler maps; the app requires one for every operation.
 */
import type { AuthContext } from '../http/auth.ts';
import type { OperationId, PathParams, QueryParams, RequestBody, SuccessResponse } from '../openapi/types.ts';
import type { AppServices } from '../services.ts';

export interface HandlerRequest<K extends OperationId> {
  path: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  /** Declared header parameters that were sent, by their document name (`Idempotency-Key`). */
  headers: Record<string, string>;
  auth: AuthContext;
  requestId: string;
  /** The request's time, one value for the whole request. */
  now: Date;
  /** Where the request reached this server (`http://127.0.0.1:4010`), for links back to it. */
  origin: string;
}

export type Handler<K extends OperationId> = (
  request: HandlerRequest<K>,
  services: AppServices,
) => Promise<SuccessResponse<K>>;

export type Handlers = { [K in OperationId]: Handler<K> };
export type PartialHandlers = { [K in OperationId]?: Handler<K> };
