/**
 * An error answered in the API's error body (section 7). Handlers and middleware throw it;
 * the error envelope turns it into a response. Anything else thrown becomes a 500 that
 * discloses nothing.
 */
import type { ErrorCode, Schemas } from '../openapi/types.ts';

export type ErrorDetails = Schemas['ErrorDetails'];
export type ValidationIssue = Schemas['ValidationIssue'];

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** Extra response headers, such as `Retry-After`. */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** `400 VALIDATION_ERROR` for one or more failing fields. */
export function validationError(errors: ValidationIssue[], message?: string): ApiError {
  const summary = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  return new ApiError(400, 'VALIDATION_ERROR', message ?? `Request validation failed: ${summary}.`, {
    details: { errors },
  });
}

export const notFound = (message = 'Not found.') => new ApiError(404, 'NOT_FOUND', message);
