/**
 * The body of `POST /__ocs-mock/scenarios`: an object naming one scenario (or several) with
 * its options, as JSON. All of it is checked before any of it is applied, with the checks
 * `mock.scenarios` makes (core/scenario-options.ts), so that a `400` names what is wrong and
 * leaves the scenarios as they were, and a `204` means every named scenario is on: an empty
 * body, an unknown or misspelt name (`netwokError`) is refused instead of doing nothing.
 */
import type { OperationId } from '../core/api-types.ts';
import type { ChaosOptions, TruncateOptions } from '../core/fault-scenarios.ts';
import type { RateLimitOptions } from '../core/options.ts';
import {
  checkChaos,
  checkFailure,
  checkFault,
  checkLatency,
  checkRateLimits,
  checkUnavailable,
} from '../core/scenario-options.ts';
import type { LatencyOptions, OcsMockScenarios, UnavailableOptions } from '../core/scenarios.ts';

type Step = (scenarios: OcsMockScenarios) => void;

/** Each scenario's check of its options, and how it is applied once every one has passed. */
const scenarios: Record<string, (options: unknown) => Step> = {
  clear(options) {
    if (options !== true) throw new TypeError(`@ocs/mock: clear must be true, got ${JSON.stringify(options)}.`);
    return (api) => api.clear();
  },
  fail(options) {
    const { operationId, ...failure } = objectOf(options, 'fail', '{ operationId, status, code, ... }');
    checkFailure(operationId, failure);
    return (api) => api.fail(operationId as OperationId, failure as never);
  },
  latency(options) {
    const { ms, ...rest } = objectOf(options, 'latency', '{ ms, operations? }');
    checkLatency(ms, rest);
    return (api) => api.latency(ms as number, rest as LatencyOptions);
  },
  rateLimit(options) {
    checkRateLimits(options, 'rateLimit');
    return (api) => api.rateLimit(options as RateLimitOptions);
  },
  unavailable(options) {
    checkUnavailable(options);
    return (api) => api.unavailable(options as UnavailableOptions);
  },
  networkError(options) {
    checkFault('networkError', options);
    return (api) => api.networkError(options as TruncateOptions);
  },
  hang(options) {
    checkFault('hang', options);
    return (api) => api.hang(options as TruncateOptions);
  },
  truncate(options) {
    checkFault('truncate', options);
    return (api) => api.truncate(options as TruncateOptions);
  },
  chaos(options) {
    checkChaos(options);
    return (api) => api.chaos(options as ChaosOptions);
  },
};

const names = Object.keys(scenarios);
const example = '{"hang": {"operations": ["getCampaign"], "times": 1}}';

/**
 * The steps the body asks for, each checked, `clear` first; throws (the reason for the
 * `400`) at the first problem.
 */
export function scenarioSteps(body: unknown): Step[] {
  if (!isObject(body)) {
    throw new TypeError(
      `@ocs/mock: the body must be a JSON object naming a scenario, such as ${example}; got ${JSON.stringify(body)}.`,
    );
  }
  const given = Object.keys(body);
  if (given.length === 0) {
    throw new TypeError(`@ocs/mock: name a scenario: one of ${names.join(', ')} (such as ${example}).`);
  }
  const unknown = given.filter((name) => !Object.hasOwn(scenarios, name));
  if (unknown.length > 0) {
    throw new TypeError(
      `@ocs/mock: no scenario ${unknown.map((name) => `"${name}"`).join(', ')}; the scenarios are ${names.join(', ')}.`,
    );
  }
  // `clear` first, so that `{ "clear": true, "hang": {...} }` clears and then hangs.
  const ordered = [...given].sort((a, b) => Number(b === 'clear') - Number(a === 'clear'));
  return ordered.map((name) => (scenarios[name] as (options: unknown) => Step)(body[name]));
}

/** The options of a scenario whose options are required (`fail`, `latency`). */
function objectOf(value: unknown, name: string, shape: string): Record<string, unknown> {
  if (!isObject(value))
    throw new TypeError(`@ocs/mock: ${name} takes an object (${shape}), got ${JSON.stringify(value)}.`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
