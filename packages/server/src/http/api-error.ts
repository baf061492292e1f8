/**
 * An error answered in the API's error body (section 7). Handlers and middleware throw it;
 * the error envelope turns it into a response. Anything else thrown becomes a 500 that
 * discloses nothing.
 */
import type { ErrorCode, Schemas } from '../openapi/types.ts';
import { groupedDigits } from '../domain/grouped-digits.ts';
import { boundedField, maxIssues } from './issue-limits.ts';

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

/**
 * How many issues the message names. `details.errors` lists the rest; a message that named
 * them all repeated them, and a batch body of 1 MB can fail with 250,000 (a message of 10 MB
 * that a client logs in one line).
 */
const issuesInMessage = 10;

/**
 * `400 VALIDATION_ERROR` for one or more failing fields. Past `maxIssues` (producers stop
 * at one more, to tell), the answer keeps the first `maxIssues` and says there are more.
 */
export function validationError(errors: ValidationIssue[], message?: string): ApiError {
  const truncated = errors.length > maxIssues;
  // Validation's own fields are bounded as they are built; those made elsewhere are bounded here.
  const listed = (truncated ? errors.slice(0, maxIssues) : errors).map((issue) => {
    const field = boundedField(issue.field);
    return field === issue.field ? issue : { ...issue, field };
  });
  return new ApiError(
    400,
    'VALIDATION_ERROR',
    message ?? `Request validation failed: ${issueSummary(listed, truncated)}.`,
    { details: truncated ? { errors: listed, errors_truncated: true } : { errors: listed } },
  );
}

/** The first issues, and how many more: for an error's message, beside `details.errors`. */
function issueSummary(errors: ValidationIssue[], truncated: boolean): string {
  const named = errors
    .slice(0, issuesInMessage)
    .map((e) => `${e.field} ${e.message}`)
    .join('; ');
  if (truncated) {
    return `${named}; and more (details.errors lists the first ${groupedDigits(maxIssues)}: fix them and send again to see the rest)`;
  }
  const more = errors.length - issuesInMessage;
  return more > 0 ? `${named}; and ${groupedDigits(more)} more (details.errors lists each)` : named;
}

export const notFound = (message = 'Not found.') => new ApiError(404, 'NOT_FOUND', message);
