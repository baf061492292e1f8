/**
 * What a named operation resolves to: the response body itself, with `OcsResult` as its
 * prototype. `requestId`, `rateLimit`, `status` and `headers` are getters of that
 * prototype, not own properties, and `idempotencyKey` is not enumerable:
 * `JSON.stringify(result)`, `{ ...result }`, `Object.keys` and `for...in` see only the
 * API's fields. The getters read the response only when asked for, which keeps a call
 * cheap (bench/).
 */
import { parseRateLimit, type RateLimit } from './rate-limit.ts';

const response = Symbol('ocs.response');

/** The prototype of every named operation's result. */
export class OcsResult {
  declare readonly [response]: Response;

  /** The request's ID (`X-Request-ID`): quote it when reporting a problem. */
  get requestId(): string | undefined {
    return this.headers.get('x-request-id') ?? undefined;
  }
  /** `RateLimit-*` and `Retry-After` of this response. */
  get rateLimit(): RateLimit {
    return parseRateLimit(this.headers);
  }
  /** HTTP status. */
  get status(): number {
    return this[response].status;
  }
  /** Response headers. */
  get headers(): Headers {
    return this[response].headers;
  }
}

/**
 * Turns a parsed body into the result, in place. The `Idempotency-Key` sent, when there is
 * one, is an own property, not enumerable.
 */
export function toResult(body: object, answer: Response, idempotencyKey: string | undefined): OcsResult {
  Object.defineProperty(body, response, { value: answer });
  if (idempotencyKey) Object.defineProperty(body, 'idempotencyKey', { value: idempotencyKey });
  return Object.setPrototypeOf(body, OcsResult.prototype);
}

/** The Response a named operation's result was read from (its body already read). */
export const responseOf = (result: object): Response => (result as OcsResult)[response];
