/**
 * Answers given outside the request pipeline: the documents, `/docs`, an unrouted path's
 * 404, and the last resort when the pipeline itself fails. Each carries a request ID and
 * writes the same access line as the pipeline's answers, with no operation.
 */
import type { Context } from 'hono';
import { notFound } from './api-error.ts';
import type { Logger } from './logger.ts';
import { logRequest } from './middleware/access-log.ts';
import { type RateLimiter, rateLimitHeaders } from './rate-limit.ts';
import { requestIdFor } from './request-id.ts';
import { errorBody, jsonResponse } from './responses.ts';

export type OutsideAnswer = (request: Request, requestId: string) => Response | Promise<Response>;

/** A Hono handler that gives `answer`, with an `X-Request-ID` and an access line. */
export const outsidePipeline =
  (logger: Logger, answer: OutsideAnswer) =>
  async (c: Context): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(c.req.raw);
    const response = await answer(c.req.raw, requestId);
    response.headers.set('X-Request-ID', requestId);
    logRequest(logger, {
      requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      operationId: null,
      status: response.status,
      started,
    });
    return response;
  };

/** The API's 404 for a path no operation has, with the budget's headers untouched. */
export const unroutedAnswer =
  (rateLimiter: RateLimiter): OutsideAnswer =>
  (request, requestId) => {
    const failure = errorBody(
      notFound(`No endpoint matches ${request.method} ${new URL(request.url).pathname}.`),
      requestId,
    );
    return jsonResponse(failure.status, failure.body, rateLimitHeaders(rateLimiter.untouched()));
  };

/** Only reached when the pipeline itself fails: its error envelope answers every API error. */
export const pipelineFailureAnswer =
  (logger: Logger) =>
  (error: Error, c: Context): Response => {
    const requestId = requestIdFor(c.req.raw);
    logger.log({ level: 'error', message: 'unhandled error', request_id: requestId, error: String(error) });
    const failure = errorBody(error, requestId);
    return jsonResponse(failure.status, failure.body, { 'X-Request-ID': requestId });
  };
