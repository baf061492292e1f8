/**
 * The headers every answer carries, errors included: `X-Request-ID`, `RateLimit-*`, and on
 * a deprecated operation `Deprecation` and `Link` (section 9). The `Link` is built from
 * validated values only: a path ID or body field that failed validation never reaches a header.
 */
import { deprecationHeaders } from '../deprecation.ts';
import { rateLimitHeaders } from '../rate-limit.ts';
import type { RequestValidator } from '../validation.ts';
import type { Middleware } from './context.ts';

export function responseHeaders(validator: RequestValidator): Middleware {
  return async (context, next) => {
    await next();
    const answer = context.answer;
    if (!answer) return;
    const { operation } = context;
    const body = context.input?.body;
    const bodyFields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    answer.headers = {
      ...answer.headers,
      'X-Request-ID': context.requestId,
      ...rateLimitHeaders(context.rateLimit),
      ...(operation.deprecated
        ? deprecationHeaders(operation, validator.validPathParameters(operation, context.pathParams), bodyFields)
        : {}),
    };
  };
}
