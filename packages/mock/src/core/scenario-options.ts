/**
 * The checks of the scenarios' options (and of `createOcsMock`'s `rateLimits`), one set for
 * both ways a scenario is set: in process (`mock.scenarios`, where JavaScript callers have no
 * types to stop them) and the standalone mock's control route (`POST /__ocs-mock/scenarios`,
 * JSON from any language). A value a scenario cannot honour is refused where it is given,
 * naming the option and what it takes, instead of turning into another behaviour later: a
 * `500` on every request (`windowMs: 0`), a limit silently gone (`perEndpoint: 'x'`), a
 * failure that never ends (`times: 'x'`) or that happens once when none was asked for
 * (`times: 0`), an undocumented code, a latency of "Infinity" that fires at once.
 *
 * A wrong type or an unknown name is a `TypeError`; a number out of range a `RangeError`.
 */
import type { OperationId } from './api-types.ts';
import { assertDocumented } from './documented-failures.ts';
import type { ChaosKind } from './fault-scenarios.ts';
import type { FaultKind } from './faults.ts';
import { operationById } from './operations.ts';
import { isPlainObject, optionsOf, shown, wholeNumber } from './option-values.ts';

/** The codes `unavailable` may answer `503` with. */
export const unavailableCodes = ['UPSTREAM_TIMEOUT', 'AUTH_UNAVAILABLE'] as const;

/** What chaos may do to a request (fault-scenarios.ts). */
const chaosKinds: readonly ChaosKind[] = ['networkError', 'hang', 'truncate', 'unavailable'];

/** The longest delay `setTimeout` keeps; a longer one fires at once. */
const maxDelayMs = 2 ** 31 - 1;

const failOptions = ['status', 'code', 'times', 'message', 'details', 'retryAfter'];
const latencyOptions = ['operations'];
const rateLimitOptions = ['perEndpoint', 'total', 'windowMs'];
const unavailableOptions = ['times', 'retryAfter', 'code'];
const faultOptions = ['operations', 'times'];
const chaosOptions = ['rate', 'seed', 'kinds', 'operations', 'retryAfter'];

/** `fail(operationId, failure)`: a known operation, and a status and code it documents. */
export function checkFailure(operationId: unknown, failure: unknown): void {
  if (typeof operationId !== 'string') {
    throw new TypeError(`@ocs/mock: fail needs an operationId (a string), got ${shown(operationId)}.`);
  }
  const operation = operationById(operationId as OperationId);
  const options = optionsOf(failure, 'fail', failOptions);
  const { status, code } = options;
  if (typeof status !== 'number' || !Number.isInteger(status)) {
    throw new TypeError(`@ocs/mock: fail.status must be an HTTP status (a whole number), got ${shown(status)}.`);
  }
  if (typeof code !== 'string') {
    throw new TypeError(`@ocs/mock: fail.code must be one of the error codes (a string), got ${shown(code)}.`);
  }
  assertDocumented(operation, status, code);
  checkTimes(options.times, 'fail.times');
  checkRetryAfter(options.retryAfter, 'fail.retryAfter');
  if (options.message !== undefined && typeof options.message !== 'string') {
    throw new TypeError(`@ocs/mock: fail.message must be a string, got ${shown(options.message)}.`);
  }
  if (options.details !== undefined && !isPlainObject(options.details)) {
    throw new TypeError(
      `@ocs/mock: fail.details must be an object (the API's ErrorDetails), got ${shown(options.details)}.`,
    );
  }
}

/** `latency(ms, options?)`: what `setTimeout` can wait, for every operation or some. */
export function checkLatency(ms: unknown, options: unknown): void {
  if (typeof ms !== 'number') throw new TypeError(`@ocs/mock: latency.ms must be a number, got ${shown(ms)}.`);
  if (!(ms >= 0 && ms <= maxDelayMs)) {
    throw new RangeError(
      `@ocs/mock: latency.ms must be a number of milliseconds from 0 to ${maxDelayMs}, got ${shown(ms)} (for no answer at all, use hang()).`,
    );
  }
  checkOperations(optionsOf(options, 'latency', latencyOptions).operations, 'latency.operations');
}

/**
 * `rateLimit(budget)` and `createOcsMock({ rateLimits })` (`label` says which): whole counts,
 * and a window of at least a millisecond (the limiter divides time by it).
 */
export function checkRateLimits(budget: unknown, label: 'rateLimit' | 'rateLimits'): void {
  const options = optionsOf(budget, label, rateLimitOptions);
  wholeNumber(options.perEndpoint, `${label}.perEndpoint`, 0);
  wholeNumber(options.total, `${label}.total`, 0);
  wholeNumber(options.windowMs, `${label}.windowMs`, 1);
}

/** `unavailable(options?)`: a count, seconds for `Retry-After`, and a `503` code the service answers. */
export function checkUnavailable(options: unknown): void {
  const { times, retryAfter, code } = optionsOf(options, 'unavailable', unavailableOptions);
  checkTimes(times, 'unavailable.times');
  checkRetryAfter(retryAfter, 'unavailable.retryAfter');
  if (code !== undefined && !unavailableCodes.includes(code as (typeof unavailableCodes)[number])) {
    throw new TypeError(`@ocs/mock: unavailable.code must be ${unavailableCodes.join(' or ')}, got ${shown(code)}.`);
  }
}

/** `networkError`, `hang`, `truncate` (options?): operations, a count, and for `truncate` the bytes sent. */
export function checkFault(kind: FaultKind, options: unknown): void {
  const names = kind === 'truncate' ? [...faultOptions, 'after'] : faultOptions;
  const given = optionsOf(options, kind, names);
  checkOperations(given.operations, `${kind}.operations`);
  checkTimes(given.times, `${kind}.times`);
  if (kind === 'truncate') wholeNumber(given.after, 'truncate.after', 0, 'bytes');
}

/** `chaos(options)`: a rate, a seed, some of the kinds, operations, seconds for `Retry-After`. */
export function checkChaos(options: unknown): void {
  if (options === undefined) throw new TypeError('@ocs/mock: chaos needs its options: { rate, seed }.');
  const given = optionsOf(options, 'chaos', chaosOptions);
  const { rate, seed, kinds } = given;
  if (typeof rate !== 'number') throw new TypeError(`@ocs/mock: chaos.rate must be a number, got ${shown(rate)}.`);
  if (!(rate >= 0 && rate <= 1)) throw new RangeError(`@ocs/mock: chaos.rate must be from 0 to 1, got ${shown(rate)}.`);
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed)) {
    throw new TypeError(`@ocs/mock: chaos.seed must be an integer, got ${shown(seed)}.`);
  }
  if (kinds !== undefined) {
    const unknown = Array.isArray(kinds) ? kinds.filter((kind) => !chaosKinds.includes(kind as ChaosKind)) : [];
    if (!Array.isArray(kinds) || kinds.length === 0 || unknown.length > 0) {
      const problem = !Array.isArray(kinds)
        ? `got ${shown(kinds)}`
        : unknown.length > 0
          ? `not ${unknown.map(String).join(', ')}`
          : 'at least one';
      throw new TypeError(`@ocs/mock: chaos.kinds must be some of ${chaosKinds.join(', ')} (${problem}).`);
    }
  }
  checkOperations(given.operations, 'chaos.operations');
  checkRetryAfter(given.retryAfter, 'chaos.retryAfter');
}

/** A count of requests: 1 or more, or `Infinity` (undefined: the scenario's default). */
function checkTimes(value: unknown, name: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number') throw new TypeError(`@ocs/mock: ${name} must be a number, got ${shown(value)}.`);
  if (!(Number.isInteger(value) || value === Number.POSITIVE_INFINITY) || value < 1) {
    throw new RangeError(
      `@ocs/mock: ${name} must be 1 or more (a whole number, or Infinity for every request), got ${shown(value)}.`,
    );
  }
}

/** Seconds for `Retry-After`, which HTTP writes as a whole number. */
function checkRetryAfter(value: unknown, name: string): void {
  wholeNumber(value, name, 0, 'seconds');
}

/** A list of the document's operationIds (undefined: every operation). */
function checkOperations(value: unknown, name: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string')) {
    throw new TypeError(
      `@ocs/mock: ${name} must be an array of operationIds such as ["listLeads"], got ${shown(value)}.`,
    );
  }
  for (const id of value as OperationId[]) operationById(id);
}
