/**
 * The fault scenarios: a connection reset, a request never answered, an answer cut off, for
 * some operations or all, a number of times or until cleared; and chaos, seeded random faults
 * at a rate. This decides which request gets which fault; faults.ts makes the answers.
 *
 * Chaos draws from the mock's seeded generator (sfc32 seeded through splitmix32,
 * seed/random.ts): for each request it considers, one draw against `rate`, and a second one
 * for the kind when it strikes. The same seed therefore gives the same faults to the same
 * sequence of requests, on every run and platform.
 */
import type { OperationId } from './api-types.ts';
import type { FaultKind } from './faults.ts';
import { operationById } from './operations.ts';
import { seededRandom } from './seed/random.ts';

export interface FaultOptions {
  /** Only requests of these operations. Default: every request under the base URL. */
  operations?: readonly OperationId[];
  /** How many requests get the fault, then it is over. Default: every one until cleared. */
  times?: number;
}

export interface TruncateOptions extends FaultOptions {
  /** Bytes of the body sent before the cut. Default: half the body. */
  after?: number;
}

/** What chaos may do to a request: a transport fault, or `503 UPSTREAM_TIMEOUT` with `Retry-After`. */
export type ChaosKind = FaultKind | 'unavailable';

export interface ChaosOptions {
  /** The share of requests that get a fault, from 0 to 1. */
  rate: number;
  /** The same seed gives the same faults to the same sequence of requests. */
  seed: number;
  /** Default `['networkError', 'truncate', 'unavailable']`; `hang` only when asked for. */
  kinds?: readonly ChaosKind[];
  /** Only requests of these operations. Default: every request under the base URL. */
  operations?: readonly OperationId[];
  /** Seconds for `Retry-After` of the `unavailable` answers. Default 1. */
  retryAfter?: number;
}

/** What a request gets. */
export type FaultDecision =
  | { kind: 'networkError' | 'hang' }
  | { kind: 'truncate'; after: number | undefined }
  | { kind: 'unavailable'; retryAfter: number };

const defaultChaosKinds: readonly ChaosKind[] = ['networkError', 'truncate', 'unavailable'];

interface Rule {
  kind: FaultKind;
  operations: ReadonlySet<string> | undefined;
  remaining: number;
  after: number | undefined;
}

interface Chaos {
  rate: number;
  kinds: readonly ChaosKind[];
  operations: ReadonlySet<string> | undefined;
  retryAfter: number;
  random: ReturnType<typeof seededRandom>;
}

export interface FaultRules {
  add(kind: FaultKind, options: TruncateOptions | undefined): void;
  chaos(options: ChaosOptions): void;
  active(): boolean;
  /** The fault of this request, if one applies; spends one of its `times`. */
  next(operationId: string | undefined): FaultDecision | undefined;
  clear(): void;
}

export function faultRules(): FaultRules {
  let rules: Rule[] = [];
  let chaos: Chaos | null = null;
  const applies = (operations: ReadonlySet<string> | undefined, id: string | undefined) =>
    operations === undefined || (id !== undefined && operations.has(id));

  return {
    // The options are checked by the scenarios (scenario-options.ts) before they come here.
    add(kind, options = {}) {
      const times = options.times ?? Number.POSITIVE_INFINITY;
      rules.push({ kind, operations: operationSet(options.operations), remaining: times, after: options.after });
    },
    chaos(options) {
      chaos = {
        rate: options.rate,
        kinds: [...(options.kinds ?? defaultChaosKinds)],
        operations: operationSet(options.operations),
        retryAfter: options.retryAfter ?? 1,
        random: seededRandom(options.seed),
      };
    },
    active: () => rules.length > 0 || chaos !== null,
    next(id) {
      const rule = rules.find((candidate) => applies(candidate.operations, id));
      if (rule) {
        if (--rule.remaining <= 0) rules = rules.filter((candidate) => candidate !== rule);
        return rule.kind === 'truncate' ? { kind: 'truncate', after: rule.after } : { kind: rule.kind };
      }
      if (!chaos || !applies(chaos.operations, id)) return undefined;
      if (chaos.random.next() >= chaos.rate) return undefined;
      const kind = chaos.random.pick(chaos.kinds);
      if (kind === 'unavailable') return { kind, retryAfter: chaos.retryAfter };
      return kind === 'truncate' ? { kind, after: undefined } : { kind };
    },
    clear() {
      rules = [];
      chaos = null;
    },
  };
}

/** The operations' ids, checked (a clear error for an unknown one); undefined for all. */
function operationSet(operations: readonly OperationId[] | undefined): ReadonlySet<string> | undefined {
  return operations === undefined ? undefined : new Set(operations.map((id) => operationById(id).operationId));
}
