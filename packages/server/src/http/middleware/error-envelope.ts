/**
 * Turns whatever the steps inside it throw into the API's error body (section 7). An
 * `ApiError` answers as it says; anything else is a 500 that says nothing but the request
 * ID, and its detail goes to the log only.
 */
import { ApiError } from '../api-error.ts';
import { childLogger, type Logger } from '../logger.ts';
import { RateLimitedError } from '../rate-limit.ts';
import { errorBody } from '../responses.ts';
import type { Middleware } from './context.ts';

export function errorEnvelope(logger: Logger): Middleware {
  return async (context, next) => {
    try {
      await next();
    } catch (error) {
      let failure = error;
      if (error instanceof RateLimitedError) {
        failure = error.error;
        context.rateLimit = error.state;
      }
      if (!(failure instanceof ApiError)) {
        (context.log ?? childLogger(logger, { request_id: context.requestId })).log({
          level: 'error',
          message: 'request failed',
          operation_id: context.operation.operationId,
          error: failure instanceof Error ? (failure.stack ?? failure.message) : String(failure),
        });
      }
      context.answer = errorBody(failure, context.requestId);
    }
  };
}
