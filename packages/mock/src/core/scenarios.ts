/**
 * Scenarios: the failures an integration must handle, switched on by a test and cleared by
 * `reset()`. Typed by operationId and by the error statuses and codes the document lists
 * for that operation.
 *
 * @example
 * mock.scenarios.fail('createCampaign', { status: 409, code: 'IDEMPOTENCY_IN_PROGRESS', times: 2 });
 * mock.scenarios.latency(300, { operations: ['listLeads'] });
 * mock.scenarios.rateLimit({ perEndpoint: 3 });
 * mock.scenarios.unavailable({ times: 1 });
 * mock.scenarios.networkError({ operations: ['listLeads'], times: 1 });
 * mock.scenarios.chaos({ rate: 0.2, seed: 7 });
 */
import type { OperationInfo, RateLimitPolicy } from '@ocs/server';
import { delay } from './abort.ts';
import type { ErrorCodeOf, ErrorDetails, ErrorStatusOf, OperationId } from './api-types.ts';
import { errorAnswer, type Failure } from './error-answer.ts';
import {
  type ChaosOptions,
  type FaultDecision,
  type FaultOptions,
  faultRules,
  type TruncateOptions,
} from './fault-scenarios.ts';
import { operationById } from './operations.ts';
import type { RateLimitOptions } from './options.ts';
import {
  checkChaos,
  checkFailure,
  checkFault,
  checkLatency,
  checkRateLimits,
  checkUnavailable,
} from './scenario-options.ts';

/** The next `times` calls to an operation fail with this documented status and code. */
export interface FailOptions<Id extends OperationId, S extends ErrorStatusOf<Id>> {
  status: S;
  /** One of the codes the document lists for this operation at `status` (not at another one). */
  code: ErrorCodeOf<Id, S>;
  /** How many calls fail, then the operation answers normally again. Default 1; `Infinity` for all. */
  times?: number;
  /** Default: the service's message for retry codes, else one naming the scenario. */
  message?: string;
  details?: ErrorDetails;
  /** Seconds for `Retry-After`. Default 1 on 429, 503 and `IDEMPOTENCY_IN_PROGRESS`. */
  retryAfter?: number;
}

/**
 * The failures an operation documents: one `FailOptions` per error status, so that `code` is
 * checked against the codes of the `status` given (a union discriminated by `status`).
 */
export type DocumentedFailure<Id extends OperationId> = {
  [S in ErrorStatusOf<Id>]: FailOptions<Id, S>;
}[ErrorStatusOf<Id>];

export interface UnavailableOptions {
  /** How many calls (to any operation) answer 503. Default: all, until cleared. */
  times?: number;
  /** Seconds for `Retry-After`. Default 1. */
  retryAfter?: number;
  /** Default `UPSTREAM_TIMEOUT`. */
  code?: 'UPSTREAM_TIMEOUT' | 'AUTH_UNAVAILABLE';
}

export interface LatencyOptions {
  /** Only these operations are slowed. Default: every operation. */
  operations?: readonly OperationId[];
}

export interface OcsMockScenarios {
  /**
   * The next `times` calls to `operationId` fail with `status` and `code`, in the API's error
   * body, before reaching the application (nothing is written). Several calls queue up.
   */
  fail<Id extends OperationId>(operationId: Id, failure: DocumentedFailure<Id>): void;
  /** Adds `ms` before every answer (or those of some operations); `latency(0)` removes it. */
  latency(ms: number, options?: LatencyOptions): void;
  /**
   * A lower rate-limit budget from now on, counted by the application's own limiter: the
   * `RateLimit-Remaining` header counts down and the call after the last answers 429.
   */
  rateLimit(budget: RateLimitOptions): void;
  /** The whole service answers `503` (with `Retry-After`), for `times` calls or until cleared. */
  unavailable(options?: UnavailableOptions): void;
  /**
   * The connection is reset before the application sees the request (nothing is written):
   * `fetch` rejects with a `TypeError`, as for a dropped connection. On the standalone mock
   * the socket is reset (RST). For `times` requests (default: until cleared), of `operations`
   * (default: every one).
   */
  networkError(options?: FaultOptions): void;
  /**
   * The request is never answered: it waits until the client gives up (its timeout or abort
   * signal), or until the scenarios are cleared, the mock is reset or the server closed
   * (then the connection is reset). Nothing reaches the application.
   */
  hang(options?: FaultOptions): void;
  /**
   * The application answers (the request is served, writes included), the status and headers
   * are sent, and the connection is cut after `after` bytes of the body (default: half).
   * On the standalone mock the socket is destroyed mid-body.
   */
  truncate(options?: TruncateOptions): void;
  /**
   * Seeded random faults: each request (of `operations`, default all) that no other scenario
   * took gets, at `rate`, one of `kinds` (default a reset, a cut body or a `503`). The same
   * seed gives the same faults to the same sequence of requests. Replaces an earlier chaos.
   */
  chaos(options: ChaosOptions): void;
  /** Ends every scenario, restores the rate limits (also done by `reset()`). */
  clear(): void;
}

/** What the transport must act out for a request (faults.ts). */
export type TransportFault = Exclude<FaultDecision, { kind: 'unavailable' }>;

/**
 * A scenario's answer, or a fault to act out; `aborted` when the request ended before the
 * scenarios were through with it (during its latency): its client gave up, or `clear()` (a
 * reset) let it go, to be answered as a hanging request is, with a connection reset, rather
 * than write into the next test. Undefined lets it through.
 */
export type ScenarioOutcome = { answer: Response } | { fault: TransportFault } | { aborted: true } | undefined;

interface PendingFailure extends Failure {
  remaining: number;
}

export interface ScenarioEngine {
  readonly api: OcsMockScenarios;
  /** Whether any scenario is on (the fast path skips the rest). */
  active(): boolean;
  /**
   * The scenario answer or fault for this request, after any latency (cut short when the
   * request's signal aborts); undefined to go on.
   */
  apply(request: Request, operation: OperationInfo | undefined): Promise<ScenarioOutcome>;
  clear(): void;
}

/** `onClear` runs at every `clear()` (the engine lets the requests left hanging go). */
export function scenarioEngine(
  rateLimits: {
    policy(): RateLimitPolicy;
    setBudget(budget: RateLimitOptions): void;
    reset(): void;
  },
  onClear: () => void,
): ScenarioEngine {
  const failures = new Map<string, PendingFailure[]>();
  const latencyByOperation = new Map<string, number>();
  let latencyAll = 0;
  let unavailable: PendingFailure | null = null;
  const faults = faultRules();
  // Aborted (and replaced) at every clear(): the requests waiting in latency go.
  let clearing = new AbortController();

  const clear = () => {
    clearing.abort();
    clearing = new AbortController();
    failures.clear();
    latencyByOperation.clear();
    latencyAll = 0;
    unavailable = null;
    faults.clear();
    rateLimits.reset();
    onClear();
  };

  const api: OcsMockScenarios = {
    fail(operationId, failure) {
      checkFailure(operationId, failure);
      const operation = operationById(operationId);
      const queue = failures.get(operation.operationId) ?? [];
      queue.push({ ...failure, code: String(failure.code), remaining: failure.times ?? 1 });
      failures.set(operation.operationId, queue);
    },
    latency(ms, options) {
      checkLatency(ms, options);
      if (!options?.operations) {
        latencyAll = ms;
        if (ms === 0) latencyByOperation.clear();
        return;
      }
      for (const id of options.operations) latencyByOperation.set(operationById(id).operationId, ms);
    },
    rateLimit(budget) {
      // No budget is no scenario: say what it takes rather than set nothing.
      if (budget === undefined)
        throw new TypeError('@ocs/mock: rateLimit needs a budget: { perEndpoint, total, windowMs }.');
      checkRateLimits(budget, 'rateLimit');
      rateLimits.setBudget(budget);
    },
    unavailable(options = {}) {
      checkUnavailable(options);
      unavailable = {
        status: 503,
        code: options.code ?? 'UPSTREAM_TIMEOUT',
        retryAfter: options.retryAfter ?? 1,
        remaining: options.times ?? Number.POSITIVE_INFINITY,
      };
    },
    networkError(options) {
      checkFault('networkError', options);
      faults.add('networkError', options);
    },
    hang(options) {
      checkFault('hang', options);
      faults.add('hang', options);
    },
    truncate(options) {
      checkFault('truncate', options);
      faults.add('truncate', options);
    },
    chaos(options) {
      checkChaos(options);
      faults.chaos(options);
    },
    clear,
  };

  return {
    api,
    active: () =>
      unavailable !== null || latencyAll > 0 || latencyByOperation.size > 0 || failures.size > 0 || faults.active(),
    clear,
    async apply(request, operation) {
      const id = operation?.operationId;
      const wait = (id !== undefined ? latencyByOperation.get(id) : undefined) ?? latencyAll;
      const cleared = clearing.signal;
      if (wait > 0) await delay(wait, request.signal, cleared);
      // The client left, or a reset let the request go, before the service saw it: nothing is
      // written, and no scenario spends one of its `times`.
      if (request.signal.aborted || cleared.aborted) return { aborted: true };
      if (unavailable) {
        const failure = unavailable;
        if (--failure.remaining <= 0) unavailable = null;
        return { answer: errorAnswer(request, failure, rateLimits.policy(), id) };
      }
      const queue = id === undefined ? undefined : failures.get(id);
      const next = queue?.[0];
      if (queue && next && id !== undefined) {
        if (--next.remaining <= 0) queue.shift();
        if (queue.length === 0) failures.delete(id);
        return { answer: errorAnswer(request, next, rateLimits.policy(), id) };
      }
      const fault = faults.next(id);
      if (fault?.kind === 'unavailable') {
        const failure = { status: 503, code: 'UPSTREAM_TIMEOUT', retryAfter: fault.retryAfter };
        return { answer: errorAnswer(request, failure, rateLimits.policy(), id) };
      }
      return fault ? { fault } : undefined;
    },
  };
}
