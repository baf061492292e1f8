/**
 * One log line per request, after its answer is final: the request ID, the caller, the status
 * and the time taken. Every answer writes it through `logRequest`: the pipeline's answers
 * (this middleware), and those given before it, an unrouted path's 404, the documents and
 * `/docs` (`http/outside-pipeline.ts`), which have no operation (`operation_id: null`) and no caller.
 *
 * The middleware gives the request its logger first, a child carrying the request ID, so
 * that every line written for the request (a failure's detail too) can be found by it.
 */
import { type AccessFields, childLogger, type Logger } from '../logger.ts';
import type { Middleware } from './context.ts';
import { loggedPath } from '../logged-path.ts';

export interface RequestLine {
  requestId: string;
  method: string;
  /** The path only: a query string may carry a lead's email (`GET /leads?email=`). */
  path: string;
  operationId: string | null;
  status: number;
  /** `performance.now()` when the request came in. */
  started: number;
  organizationId?: string | null;
  apiKeyId?: string | null;
}

/** The access line: one shape for every request, whatever answered it. */
export function logRequest(logger: Logger, line: RequestLine): void {
  const level = line.status >= 500 ? 'error' : 'info';
  const fields: AccessFields = {
    request_id: line.requestId,
    method: line.method,
    path: loggedPath(line.path),
    operation_id: line.operationId,
    status: line.status,
    duration_ms: Math.round((performance.now() - line.started) * 100) / 100,
    organization_id: line.organizationId ?? null,
    api_key_id: line.apiKeyId ?? null,
  };
  if (logger.access) logger.access(level, fields);
  else logger.log({ level, message: 'request', ...fields });
}

export function accessLog(logger: Logger): Middleware {
  return async (context, next) => {
    const started = performance.now();
    const log = childLogger(logger, { request_id: context.requestId });
    context.log = log;
    await next();
    // Through the server's logger with the request ID as a field: the request's own child
    // logger is made only when something else is logged for it.
    logRequest(logger, {
      requestId: context.requestId,
      method: context.operation.method,
      path: context.url.pathname,
      operationId: context.operation.operationId,
      status: context.answer?.status ?? 500,
      started,
      organizationId: context.auth?.organization.id ?? null,
      apiKeyId: context.auth?.key.id ?? null,
    });
  };
}
