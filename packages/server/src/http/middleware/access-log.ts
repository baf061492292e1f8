/**
 * One log line per request, after its answer is final: the request ID, the caller, the status
 * and the time taken. It gives the request its logger first, a child carrying the request ID,
 * so that every line written for the request (a failure's detail too) can be found by it.
 */
import { childLogger, type Logger } from '../logger.ts';
import type { Middleware } from './context.ts';

export function accessLog(logger: Logger): Middleware {
  return async (context, next) => {
    const started = performance.now();
    const log = childLogger(logger, { request_id: context.requestId });
    context.log = log;
    await next();
    const status = context.answer?.status ?? 500;
    // Through the server's logger with the request ID as a field: the request's own child
    // logger is made only when something else is logged for it.
    logger.log({
      level: status >= 500 ? 'error' : 'info',
      message: 'request',
      request_id: context.requestId,
      method: context.operation.method,
      // The path only: a query string may carry a lead's email (`GET /leads?email=`).
      path: context.url.pathname,
      operation_id: context.operation.operationId,
      status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      organization_id: context.auth?.organization.id ?? null,
      api_key_id: context.auth?.key.id ?? null,
    });
  };
}
