/** Building the API's JSON answers: success bodies and the error body of section 7. */
import { ApiError } from './api-error.ts';

export function jsonResponse(status: number, body: string, headers: Record<string, string>): Response {
  const response = new Response(body, { status, headers: { 'Content-Type': 'application/json', ...headers } });
  answerTexts.set(response, body);
  return response;
}

/**
 * The text an answer of `jsonResponse` was made from, without reading its body: the mock's
 * request journal records every answer, and reading a body turns @hono/node-server's
 * lightweight Response into a stream that is then written the slow way. Undefined for any
 * other Response.
 */
export function answerText(response: Response): string | undefined {
  return answerTexts.get(response);
}

const answerTexts = new WeakMap<Response, string>();

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
