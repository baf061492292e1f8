/**
 * The request pipeline, one middleware per step (`middleware/`), in the order the
 * specification's checks apply: access log; response headers (`X-Request-ID`,
 * `RateLimit-*`, deprecation) on every answer; the error envelope; authentication; rate
 * limit; scope; JSON body; validation; with a data version, the answer cache
 * (`middleware/answer-cache.ts`); idempotency where the operation declares it; the handler.
 */
import type { Clock } from '../domain/clock.ts';
import { answerCache, type DataChanges } from './middleware/answer-cache.ts';
import type { AppServices } from '../services.ts';
import type { Authenticator } from './auth.ts';
import type { IdempotencyKeys } from './idempotency.ts';
import { accessLog } from './middleware/access-log.ts';
import { authenticate } from './middleware/authenticate.ts';
import { compose } from './middleware/compose.ts';
import type { RequestContext } from './middleware/context.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { idempotency } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/json-body.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { responseHeaders } from './middleware/response-headers.ts';
import { runHandler } from './middleware/run-handler.ts';
import { scope } from './middleware/scope.ts';
import { validate } from './middleware/validate.ts';
import type { RateLimiter } from './rate-limit.ts';
import { requestIdFor } from './request-id.ts';
import { jsonResponse } from './responses.ts';
import type { HandleOperation } from './router.ts';
import type { RequestValidator } from './validation.ts';

export interface PipelineParts {
  services: AppServices;
  /** Real time, for budgets, leases and key expiry, whatever the sandbox clock says. */
  wallClock: Clock;
  authenticator: Authenticator;
  rateLimiter: RateLimiter;
  idempotencyKeys: IdempotencyKeys;
  validator: RequestValidator;
  /**
   * How the store tells that its data changed (the memory store's): given, the answers of
   * the operations `answer-cache.ts` lists are kept until the data changes.
   */
  dataChanges?: DataChanges;
}

export function createRequestPipeline(parts: PipelineParts): HandleOperation {
  const { services, wallClock, authenticator, rateLimiter, idempotencyKeys, validator, dataChanges } = parts;
  const { logger } = services;
  const pipeline = compose([
    accessLog(logger),
    responseHeaders(validator),
    errorEnvelope(logger),
    authenticate(authenticator),
    rateLimit(rateLimiter),
    scope,
    jsonBody,
    validate(validator),
    ...(dataChanges ? [answerCache(dataChanges)] : []),
    idempotency(idempotencyKeys),
    runHandler(services),
  ]);

  return async (operation, handler, request, pathParams) => {
    const context: RequestContext = {
      request,
      url: new URL(request.url),
      operation,
      handler,
      pathParams,
      requestId: requestIdFor(request),
      now: services.clock.now(),
      wallNow: wallClock.now(),
      rateLimit: rateLimiter.untouched(),
    };
    await pipeline(context);
    const { answer } = context;
    if (!answer) throw new Error(`${operation.operationId}: the pipeline gave no answer`);
    return jsonResponse(answer.status, answer.body, answer.headers);
  };
}
