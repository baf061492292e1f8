/**
 * What the request pipeline's middleware share: the request as it arrived, what each step
 * learned (the caller, the budget, the validated input) and the answer being built.
 */
import type { OperationInfo } from '../../openapi/document.ts';
import type { OperationId } from '../../openapi/types.ts';
import type { HandlerRequest } from '../../routes/registry.ts';
import type { AppServices } from '../../services.ts';
import type { Store } from '../../store/types.ts';
import type { AuthContext } from '../auth.ts';
import type { Logger } from '../logger.ts';
import type { RateLimitState } from '../rate-limit.ts';
import type { ValidatedInput } from '../validation.ts';

/** A handler as the pipeline sees it: per-operation types are checked where handlers are written. */
export type AnyHandler = (
  request: HandlerRequest<OperationId>,
  services: AppServices,
) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;

/** The answer as the pipeline builds it: the body is JSON text already. */
export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface RequestContext {
  readonly request: Request;
  readonly url: URL;
  readonly operation: OperationInfo;
  readonly handler: AnyHandler;
  /** Path parameters as the router matched them, not yet validated. */
  readonly pathParams: Record<string, string>;
  readonly requestId: string;
  /** The service clock's time (the sandbox clock in sandbox mode): what handlers record. */
  readonly now: Date;
  /** Real time: what budgets follow (rate limits, idempotency keys, API key expiry). */
  readonly wallNow: Date;
  /** The full budget until the rate limit counts the request. */
  rateLimit: RateLimitState;
  auth?: AuthContext;
  /** The parsed JSON body, before validation (undefined when none was sent). */
  rawBody?: unknown;
  input?: ValidatedInput;
  /**
   * The store the handler must use, when not the services' own: the transaction of the
   * idempotency step, in which the handler's writes commit with the stored answer.
   */
  store?: Store;
  /**
   * What to tell once that transaction has committed (`AppServices.bulkWritten`): told
   * before, a check could read the catalog while the writes are still uncommitted.
   */
  afterCommit?: Array<() => void>;
  answer?: Answer;
  /** The request's logger: every line it writes carries the request ID (set by `accessLog`). */
  log?: Logger;
}

/** One step of the pipeline: does its part, then calls `next` (or answers by not calling it). */
export type Middleware = (context: RequestContext, next: () => Promise<void>) => Promise<void>;

/** The caller, once `authenticate` ran: steps after it may rely on it. */
export function authOf(context: RequestContext): AuthContext {
  if (!context.auth)
    throw new Error(`${context.operation.operationId}: a step needs the caller before authenticate ran`);
  return context.auth;
}

/** The validated input, once `validate` ran. */
export function inputOf(context: RequestContext): ValidatedInput {
  if (!context.input) throw new Error(`${context.operation.operationId}: a step needs the input before validate ran`);
  return context.input;
}
