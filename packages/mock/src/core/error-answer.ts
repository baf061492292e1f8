/**
 * Error answers of the scenarios, built as the application builds its own: the API's error
 * body with the request's ID, `X-Request-ID`, the `RateLimit-*` headers, and `Retry-After`
 * where the service sends one.
 */
import { ApiError, errorBody, jsonResponse, type RateLimitPolicy, rateLimitHeaders, requestIdFor } from '@ocs/server';
import type { ErrorDetails } from './api-types.ts';

export interface Failure {
  status: number;
  code: string;
  message?: string;
  details?: ErrorDetails;
  /** Seconds for `Retry-After`. Default: 1 on 429, 503 and `IDEMPOTENCY_IN_PROGRESS`, else none. */
  retryAfter?: number;
}

const retryCodes = new Set(['RATE_LIMITED', 'UPSTREAM_TIMEOUT', 'AUTH_UNAVAILABLE', 'IDEMPOTENCY_IN_PROGRESS']);

const messages: Record<string, (retryAfter: number | undefined) => string> = {
  RATE_LIMITED: (seconds) => `Rate limit exceeded. Retry after ${seconds ?? 1} seconds.`,
  UPSTREAM_TIMEOUT: () => 'A dependency timed out. Retry the request.',
  AUTH_UNAVAILABLE: () => 'The API key could not be checked. Retry after a short wait.',
  INTERNAL_ERROR: () => 'Internal error.',
};

export function errorAnswer(
  request: Request,
  failure: Failure,
  policy: RateLimitPolicy,
  operationId: string | undefined,
): Response {
  const requestId = requestIdFor(request);
  const retryAfter =
    failure.retryAfter ??
    (failure.status === 429 || failure.status === 503 || retryCodes.has(failure.code) ? 1 : undefined);
  const message =
    failure.message ??
    messages[failure.code]?.(retryAfter) ??
    `${failure.code} (an @ocs/mock scenario for ${operationId ?? 'this request'}).`;
  const error = new ApiError(failure.status, failure.code as ApiError['code'], message, {
    details: failure.details as ApiError['details'],
    headers: retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) },
  });
  const answer = errorBody(error, requestId);
  const limited = failure.status === 429;
  return jsonResponse(answer.status, answer.body, {
    ...answer.headers,
    'X-Request-ID': requestId,
    ...rateLimitHeaders({
      limit: policy.perEndpoint,
      remaining: limited ? 0 : policy.perEndpoint,
      reset: limited ? (retryAfter ?? 1) : 0,
    }),
  });
}
