/**
 * Every error the SDK throws, in one family. `OcsApiError` (and one subclass per status
 * family) is an error answer of the API; `OcsConnectionError`, `OcsTimeoutError` and
 * `OcsAbortError` mean no answer was used. `catch` narrows by class, then by `code`:
 *
 * @example
 * try {
 *   await getCampaign(client, { campaign_id });
 * } catch (error) {
 *   if (error instanceof OcsNotFoundError && error.code === 'CAMPAIGN_NOT_FOUND') return null;
 *   throw error;
 * }
 */
import { brand, key, type Branded } from './brand.ts';
import type { components } from './generated/openapi.ts';
import { parseRateLimit, type RateLimit } from './rate-limit.ts';
import type { ErrorCodeAtStatus } from './types.ts';

/** Every error code the document lists (`components.schemas.ErrorCode`). */
export type ErrorCode = components['schemas']['ErrorCode'];
/** The typed `details` of an error body: `errors[]`, `account_ids`, `conflicts`, `webhook_id`, `issues`... */
export type ErrorDetails = components['schemas']['ErrorDetails'];
/** The body of every error answer. */
export type ErrorBody = components['schemas']['ErrorBody'];

/**
 * Base class of everything the SDK throws. `instanceof` works across copies of the SDK in
 * one process, its CommonJS and ESM builds among them (src/brand.ts).
 */
export class OcsError extends Error {
  static {
    brand(this, 'OcsError');
  }
  /** The class's name (its brand, which survives minification). */
  override name = (this as Branded)[key] as string;

  /** Whether `value` is an instance of this class, made by any copy of the SDK (src/brand.ts). */
  static override [Symbol.hasInstance]<T>(this: abstract new (...args: never) => T, value: unknown): value is T {
    const prototype = this.prototype as Branded;
    // No brand of its own: a user's subclass, which a parent's instance must not match.
    if (!Object.hasOwn(prototype, key)) return super[Symbol.hasInstance](value);
    // Each prototype's brand, own or inherited, is that of a prototype of the chain: no
    // own-property check is needed. (A primitive has no brand: `0` and `''` end the loop.)
    while (value && (value as Branded)[key] !== prototype[key]) value = Object.getPrototypeOf(value);
    return !!value;
  }
}

// When the body is not the API's error body (a proxy answered, for example), the code
// is the one the document gives that status (else VALIDATION_ERROR for a 3xx or 4xx,
// INTERNAL_ERROR for a 5xx, and for a 2xx whose body is not the API's), so that `code` is
// always an ErrorCode.
const fallbackCodes: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  403: 'INSUFFICIENT_SCOPE',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  503: 'UPSTREAM_TIMEOUT',
};

/**
 * An error answer of the API (any non-2xx status), or a 2xx whose body is not the API's (not
 * a JSON object, or a list page without its items). Subclasses narrow by status family.
 */
export class OcsApiError extends OcsError {
  static {
    brand(this, 'OcsApiError');
  }
  /** HTTP status. */
  declare readonly status: number;
  /** The API's error code (`error` in the body). Treat a code you do not know by its status. */
  declare readonly code: ErrorCode;
  /** Structured details, typed as the document's `ErrorDetails`. */
  declare readonly details: ErrorDetails | undefined;
  /** `request_id` of the body (a string), else the `X-Request-ID` header: quote it when reporting a problem. */
  declare readonly requestId: string | undefined;
  /** Response headers. */
  declare readonly headers: Headers;
  /** `RateLimit-*` and `Retry-After` of the response. */
  declare readonly rateLimit: RateLimit;
  /** Seconds the service asked to wait (`Retry-After`), when it sent one. */
  declare readonly retryAfter: number | undefined;
  /** The `Idempotency-Key` sent with the request, when one was. */
  declare readonly idempotencyKey: string | undefined;
  /** The parsed response body (the text when it was not JSON). */
  declare readonly body: unknown;
  /**
   * How many times the request was sent (1 + the retries). A DELETE answered 404 with
   * `attempts > 1` may have been carried out by an earlier attempt whose answer was lost.
   */
  declare readonly attempts: number;

  /**
   * @param notJson the body could not be parsed as JSON (`body` is then its text): the
   * message says so, since a JSON string body is a string too.
   */
  constructor(response: Response, body: unknown, idempotencyKey?: string, attempts = 1, notJson?: boolean) {
    // The API's error body has its code as a string; any other body (a proxy's JSON, text) is
    // not read for fields, so that `code` is always a string.
    const api = (body && typeof (body as ErrorBody).error === 'string' ? body : {}) as Partial<ErrorBody>;
    const status = response.status;
    const code =
      api.error ?? fallbackCodes[status] ?? (status > 299 && status < 500 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR');
    // Only a string: another server's `request_id` may be anything.
    const requestId =
      typeof api.request_id == 'string' ? api.request_id : (response.headers.get('x-request-id') ?? undefined);
    const rateLimit = parseRateLimit(response.headers);
    // The API's messages say what to do ("Retry after 12 seconds."), when there is one;
    // another body means something else answered: below 500, a server that is not the API
    // (a wrong baseUrl, a captive portal); from 500, the API or a proxy before it failing (a
    // gateway's HTML 502), where baseUrl is not the question.
    // A message that is not a string (some other server's object) would print `[object Object]`.
    const what = api.error
      ? (typeof api.message == 'string' && api.message) || 'No message from the API.'
      : `Not the API's ${response.ok ? 'answer' : 'error body'}${notJson ? ' (not valid JSON)' : ''}: ${
          status > 499 ? 'a server failed' : 'check baseUrl'
        }.`;
    super(`${what} (${code}, HTTP ${status}${requestId ? `, request ${requestId}` : ''})`);
    Object.assign(this, {
      status,
      code,
      details: api.details,
      requestId,
      headers: response.headers,
      rateLimit,
      retryAfter: rateLimit.retryAfter,
      idempotencyKey,
      body,
      attempts,
    });
  }
}

/** 400: the request does not match the document (`VALIDATION_ERROR`) or breaks a rule. */
export class OcsBadRequestError extends OcsApiError {
  static {
    brand(this, 'OcsBadRequestError');
  }
  declare readonly code: ErrorCodeAtStatus<400>;
}
/** 401: the API key is missing, malformed, unknown, revoked or expired. */
export class OcsAuthenticationError extends OcsApiError {
  static {
    brand(this, 'OcsAuthenticationError');
  }
  declare readonly code: ErrorCodeAtStatus<401>;
}
/** 403: the key lacks the scope, or its organization is deactivated. */
export class OcsPermissionDeniedError extends OcsApiError {
  static {
    brand(this, 'OcsPermissionDeniedError');
  }
  declare readonly code: ErrorCodeAtStatus<403>;
}
/** 404: no such endpoint or resource in the key's organization. */
export class OcsNotFoundError extends OcsApiError {
  static {
    brand(this, 'OcsNotFoundError');
  }
  declare readonly code: ErrorCodeAtStatus<404>;
}
/** 409: the request conflicts with the resource's state (idempotency, sequence, webhook slot...). */
export class OcsConflictError extends OcsApiError {
  static {
    brand(this, 'OcsConflictError');
  }
  declare readonly code: ErrorCodeAtStatus<409>;
}
/** 413: the body is larger than 1 MB. */
export class OcsPayloadTooLargeError extends OcsApiError {
  static {
    brand(this, 'OcsPayloadTooLargeError');
  }
  declare readonly code: ErrorCodeAtStatus<413>;
}
/** 429: a rate limit is exhausted; `retryAfter` says how long to wait. */
export class OcsRateLimitError extends OcsApiError {
  static {
    brand(this, 'OcsRateLimitError');
  }
  declare readonly code: ErrorCodeAtStatus<429>;
}
/** 500: the service failed; quote `requestId`. */
export class OcsInternalServerError extends OcsApiError {
  static {
    brand(this, 'OcsInternalServerError');
  }
  declare readonly code: ErrorCodeAtStatus<500>;
}
/** 503: a dependency timed out or the key could not be checked; safe to retry. */
export class OcsServiceUnavailableError extends OcsApiError {
  static {
    brand(this, 'OcsServiceUnavailableError');
  }
  declare readonly code: ErrorCodeAtStatus<503>;
}

const byStatus: Record<number, typeof OcsApiError> = {
  400: OcsBadRequestError,
  401: OcsAuthenticationError,
  403: OcsPermissionDeniedError,
  404: OcsNotFoundError,
  409: OcsConflictError,
  413: OcsPayloadTooLargeError,
  429: OcsRateLimitError,
  500: OcsInternalServerError,
  503: OcsServiceUnavailableError,
};

/**
 * The error for an error answer, or a 2xx that is not the API's: the status family's class,
 * else `OcsApiError` itself.
 */
export const createApiError = (
  response: Response,
  body: unknown,
  idempotencyKey?: string,
  attempts?: number,
  notJson?: boolean,
): OcsApiError => new (byStatus[response.status] ?? OcsApiError)(response, body, idempotencyKey, attempts, notJson);

/**
 * The API's answer read from its text: a JSON object from a 2xx. Anything else (an error
 * answer, a proxy's or a captive portal's page, JSON that is not an object, an array
 * included) throws the
 * error, with the text as its body when it is not JSON. Both APIs read 2xx bodies with it.
 */
export function readAnswer(
  response: Response,
  text: string,
  idempotencyKey?: string,
  attempts?: number,
  /** What an empty body counts as; then the body read. */
  data: unknown = {},
): object {
  let notJson: true | undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
      notJson = true;
    }
  }
  if (!response.ok || !data || typeof data != 'object' || Array.isArray(data))
    throw createApiError(response, data, idempotencyKey, attempts, notJson);
  return data;
}

/** The API could not be reached (DNS, refused or reset connection...), after the retries allowed. */
export class OcsConnectionError extends OcsError {
  static {
    brand(this, 'OcsConnectionError');
  }
}

/** The call's deadline (`timeoutMs`, across every attempt and wait) passed. */
export class OcsTimeoutError extends OcsError {
  static {
    brand(this, 'OcsTimeoutError');
  }
}

/** The caller's `AbortSignal` aborted the call (`cause` is the signal's reason). */
export class OcsAbortError extends OcsError {
  static {
    brand(this, 'OcsAbortError');
  }
}
