/**
 * What a named operation resolves to: the response body itself, with `OcsResult` as its
 * prototype. The body's own names are the body's: what the SDK adds (the Response, the
 * `Idempotency-Key` sent) sits under symbols, read by `resultMeta(result)`, so that no field
 * the API answers with, today or in a later version, can collide with it. `requestId`,
 * `rateLimit`, `status`, `headers` and `idempotencyKey` are getters of the prototype, kept
 * as shorthands: a body field of the same name hides its getter (in the result's type too),
 * and never the reverse. `JSON.stringify(result)`, `{ ...result }`, `Object.keys` and
 * `for...in` see only the API's fields. The getters read the response only when asked for,
 * which keeps a call cheap (bench/).
 */
import { parseRateLimit, type RateLimit } from './rate-limit.ts';
import type { ResultMeta } from './types.ts';

// `Symbol.for`: a result made by one copy of the SDK (its CommonJS build) is read by another
// (its ESM build) as well.
const response = Symbol.for('@ocs/sdk.response');
const key = Symbol.for('@ocs/sdk.idempotencyKey');

/** The prototype of every named operation's result. */
export class OcsResult {
  declare readonly [response]: Response;
  declare readonly [key]: string | undefined;

  /** The request's ID (`X-Request-ID`): quote it when reporting a problem. Same as `resultMeta(result).requestId`. */
  get requestId(): string | undefined {
    return this[response].headers.get('x-request-id') ?? undefined;
  }
  /** `RateLimit-*` and `Retry-After` of this response. Same as `resultMeta(result).rateLimit`. */
  get rateLimit(): RateLimit {
    return parseRateLimit(this[response].headers);
  }
  /** HTTP status. Same as `resultMeta(result).status`. */
  get status(): number {
    return this[response].status;
  }
  /** Response headers. Same as `resultMeta(result).headers`. */
  get headers(): Headers {
    return this[response].headers;
  }
  /** The `Idempotency-Key` sent, where the operation declares one. Same as `resultMeta(result).idempotencyKey`. */
  get idempotencyKey(): string | undefined {
    return this[key];
  }
}

/** Turns a parsed body into the result, in place, adding nothing under the body's own names. */
export function toResult(body: object, answer: Response, idempotencyKey: string | undefined): OcsResult {
  // Not enumerable (`defineProperties`' default), so that the body's own fields stay the only ones seen.
  Object.defineProperties(body, { [response]: { value: answer }, [key]: { value: idempotencyKey } });
  return Object.setPrototypeOf(body, OcsResult.prototype);
}

/** The Response a named operation's result was read from (its body already read). */
export const responseOf = (result: object): Response => (result as OcsResult)[response];

/**
 * What a named operation's result carries besides the body, whatever the body's own fields
 * are called: a body with a `status` or `headers` field of its own hides the getters of the
 * same name on the result, never these. An `OcsResult` with no body fields, so that no name
 * hides a getter; the getters still read the response only when asked for.
 *
 * @example
 * const result = await getCampaign(client, { campaign_id });
 * const { requestId, status, rateLimit } = resultMeta(result);
 */
export const resultMeta = (result: object): ResultMeta & { readonly idempotencyKey: string | undefined } =>
  toResult({}, (result as OcsResult)[response], (result as OcsResult)[key]) as never;
