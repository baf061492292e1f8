/** Building the API's JSON answers: success bodies and the error body of section 7. */
import { ApiError } from './api-error.ts';

export function jsonResponse(status: number, body: string, headers: Record<string, string>): Response {
  const response: Answer = new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
  response[textKey] = body;
  return response;
}

/**
 * The text an answer of `jsonResponse` was made from, without reading its body: the mock's
 * request journal records every answer, and reading a body turns @hono/node-server's
 * lightweight Response into a stream that is then written the slow way. Undefined for any
 * other Response.
 */
export function answerText(response: Response): string | undefined {
  return (response as Answer)[textKey];
}

/**
 * Where an answer keeps its text: a property of the Response, not a WeakMap. A WeakMap that
 * every answer enters for its short life is an ephemeron table in the old generation pointing
 * at young objects, which every scavenge walks: on the mock's leads page that more than
 * doubled the collector's time per request.
 */
const textKey = Symbol('ocs.answerText');

type Answer = Response & { [textKey]?: string };

/** The error body for `error`; anything that is not an ApiError is a 500 that says nothing. */
export function errorBody(
  error: unknown,
  requestId: string,
): { status: number; body: string; headers: Record<string, string> } {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(500, 'INTERNAL_ERROR', `Internal error. Quote request_id ${requestId} when reporting it.`);
  const body = {
    success: false as const,
    error: apiError.code,
    message: apiError.message,
    ...(apiError.details === undefined ? {} : { details: apiError.details }),
    request_id: requestId,
  };
  return { status: apiError.status, body: JSON.stringify(body), headers: apiError.headers };
}
