/**
 * The application: a fetch handler, `(Request) => Promise<Response>`, over a store. It uses
 * only web-standard APIs, so the same application serves in Node, inside MSW and in a
 * browser. Routes, scopes, validation and deprecations come from the OpenAPI document.
 *
 * Every request goes through, in order: request ID; route match (unknown path: 404);
 * authentication; rate limit; scope; body (413 past 1 MB); validation; idempotency where the
 * operation declares it; the handler. Every answer carries `X-Request-ID` and `RateLimit-*`.
 */
import { Hono } from 'hono';
import { type Clock, SandboxClock, systemClock, wallClockOf } from './domain/clock.ts';
import { createFetchTransport } from './delivery/fetch-transport.ts';
import type { WebhookTransport } from './delivery/types.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { type OutboundChannel, sandboxChannel } from './engine/channel.ts';
import { createEngine, type Engine } from './engine/engine.ts';
import { ApiError, notFound } from './http/api-error.ts';
import { type AuthContext, Authenticator, requireScope } from './http/auth.ts';
import { readJsonBody } from './http/body.ts';
import { deprecationHeaders } from './http/deprecation.ts';
import { defaultIdempotency, IdempotencyKeys, type IdempotencyPolicy } from './http/idempotency.ts';
import { type Logger, silentLogger } from './http/logger.ts';
import {
  defaultRateLimits,
  inProcessRateLimits,
  type RateLimitPolicy,
  RateLimitedError,
  RateLimiter,
  type RateLimitState,
  rateLimitHeaders,
} from './http/rate-limit.ts';
import { requestIdFor } from './http/request-id.ts';
import { errorBody, jsonResponse } from './http/responses.ts';
import { RequestValidator } from './http/validation.ts';
import { type OperationInfo, operationTable } from './openapi/document.ts';
import { servedDocuments } from './openapi/served.ts';
import type { OperationId } from './openapi/types.ts';
import { handlers as allHandlers } from './routes/index.ts';
import type { HandlerRequest, PartialHandlers } from './routes/registry.ts';
import type { AppServices, ServerConfig, WebhookHostCheck } from './services.ts';
import type { RateLimitStore, Store } from './store/types.ts';

export interface AppOptions {
  store: Store;
  /** Defaults to every handler of the API; tests may narrow it. */
  handlers?: PartialHandlers;
  clock?: Clock;
  logger?: Logger;
  config?: Partial<ServerConfig>;
  rateLimits?: Partial<RateLimitPolicy>;
  idempotency?: Partial<IdempotencyPolicy>;
  /** How long a looked-up API key is trusted before it is read again (0: every request). */
  authCacheTtlMs?: number;
  /**
   * Rate-limit counters to use instead of the default ones (the mock passes its own, so that
   * its `reset()` can start every budget afresh).
   */
  rateLimitCounters?: RateLimitStore;
  /**
   * The request validator to use. It holds only compiled schemas of the document, so apps
   * may share one: the mock does, so that a new mock reuses what earlier ones compiled.
   */
  validator?: RequestValidator;
  /**
   * How `prospect_response` deliveries reach receivers. Defaults to `fetch` (web-standard);
   * the Node server passes `createNodeWebhookTransport`, which refuses non-public addresses
   * at connect time.
   */
  webhookTransport?: WebhookTransport;
  /** Where the engine's messages go; defaults to the sandbox channel, which records them. */
  channel?: OutboundChannel;
  /** Resolves webhook hosts at registration (`AppServices.checkWebhookHost`); the Node server passes one. */
  checkWebhookHost?: WebhookHostCheck;
}

export interface App {
  fetch(request: Request): Promise<Response>;
  services: AppServices;
  authenticator: Authenticator;
  /** The rate limiter; its `policy` may be changed at run time (the mock's low-budget scenario). */
  rateLimiter: RateLimiter;
  /** Runs due steps and deliveries (`start()` it in a long-running server). */
  engine: Engine;
}

const idempotencyHeader = 'Idempotency-Key';

/** A handler as the pipeline sees it: per-operation types are checked where handlers are written. */
type AnyHandler = (
  request: HandlerRequest<OperationId>,
  services: AppServices,
) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;

export function createApp(options: AppOptions): App {
  const config: ServerConfig = { sandbox: false, allowInsecureWebhooks: false, ...options.config };
  const logger = options.logger ?? silentLogger;
  const clock = serviceClock(options.clock, config.sandbox);
  // Budgets keep real time even in sandbox mode: advancing the sandbox clock must not refill
  // a rate limit, expire an idempotency key or an API key.
  const wallClock = wallClockOf(clock);
  const deliveries = createDeliveryWorker({
    store: options.store,
    transport: options.webhookTransport ?? createFetchTransport(),
    clock,
    onError: (error) => logger.log({ level: 'error', message: 'delivery worker failed', error: String(error) }),
  });
  const engine = createEngine({
    store: options.store,
    clock,
    channel: options.channel ?? sandboxChannel,
    deliveries,
    logger,
  });
  const services: AppServices = {
    store: options.store,
    clock,
    logger,
    config,
    engine,
    ...(options.checkWebhookHost ? { checkWebhookHost: options.checkWebhookHost } : {}),
  };
  const authenticator = new Authenticator(options.store, options.authCacheTtlMs ?? 0);
  // Only a PostgreSQL server is shared by several processes; everywhere else the counters
  // can live in this process (see inProcessRateLimits).
  const rateLimiter = new RateLimiter(
    options.rateLimitCounters ?? (options.store.kind === 'postgres' ? options.store.rateLimits : inProcessRateLimits()),
    { ...defaultRateLimits, ...options.rateLimits },
  );
  const idempotency = new IdempotencyKeys(options.store, { ...defaultIdempotency, ...options.idempotency });
  const validator = options.validator ?? new RequestValidator();
  const handlers = options.handlers ?? allHandlers;

  const hono = new Hono({ strict: true });
  for (const [path, document] of Object.entries(servedDocuments)) {
    hono.get(
      path,
      async () => new Response(await document.body(), { headers: { 'Content-Type': document.contentType } }),
    );
  }
  // Routes with fewer parameters first, so `/campaigns/sequence-templates` wins over
  // `/campaigns/{campaign_id}`.
  const ordered = [...operationTable].sort((a, b) => paramCount(a.path) - paramCount(b.path));
  for (const operation of ordered) {
    const handler = handlers[operation.operationId] as unknown as AnyHandler | undefined;
    // An operation without a handler is not routed (404); a test requires every handler.
    if (!handler) continue;
    hono.on(operation.method, `/v1${operation.path.replaceAll(/\{(\w+)\}/g, ':$1')}`, (c) =>
      handle(operation, handler, c.req.raw, c.req.param() as Record<string, string>),
    );
  }
  hono.notFound((c) => {
    const requestId = requestIdFor(c.req.raw);
    const failure = errorBody(
      notFound(`No endpoint matches ${c.req.method} ${new URL(c.req.url).pathname}.`),
      requestId,
    );
    return jsonResponse(failure.status, failure.body, {
      'X-Request-ID': requestId,
      ...rateLimitHeaders(rateLimiter.untouched()),
    });
  });
  hono.onError((error, c) => {
    // Only reached when the pipeline itself fails; handle() answers every API error.
    const requestId = requestIdFor(c.req.raw);
    services.logger.log({ level: 'error', message: 'unhandled error', request_id: requestId, error: String(error) });
    const failure = errorBody(error, requestId);
    return jsonResponse(failure.status, failure.body, { 'X-Request-ID': requestId });
  });

  async function handle(
    operation: OperationInfo,
    handler: AnyHandler,
    request: Request,
    pathParams: Record<string, string>,
  ): Promise<Response> {
    const started = performance.now();
    const requestId = requestIdFor(request);
    const now = services.clock.now();
    const wallNow = wallClock.now();
    const url = new URL(request.url);
    let rateLimit: RateLimitState = rateLimiter.untouched();
    let auth: AuthContext | undefined;
    let status: number;
    let body: string;
    let extraHeaders: Record<string, string>;
    // Headers are built from validated values only (deprecation's Link).
    let bodyFields: Record<string, unknown> = {};
    try {
      auth = await authenticator.authenticate(request, wallNow);
      rateLimit = await rateLimiter.consume(auth.key.id, `${operation.method} ${operation.path}`, wallNow);
      requireScope(auth, operation.scope);
      const rawBody = operation.hasBody ? await readJsonBody(request) : undefined;
      const input = validator.validate(operation, {
        path: pathParams,
        url,
        headers: request.headers,
        body: rawBody,
      });
      if (input.body && typeof input.body === 'object') bodyFields = input.body as Record<string, unknown>;
      const origin = url.origin;
      const handlerRequest = { ...input, auth, requestId, now, origin } as unknown as HandlerRequest<OperationId>;
      const key = input.headers[idempotencyHeader];
      if (key !== undefined) {
        const answer = await runIdempotent(operation, handlerRequest, key, auth.organization.id, wallNow);
        ({ status, body } = answer);
        extraHeaders = { [idempotencyHeader]: key, ...answer.headers };
      } else {
        const result = await handler(handlerRequest, services);
        status = result.status;
        body = JSON.stringify(result.body);
        extraHeaders = result.headers ?? {};
      }
    } catch (error) {
      const failure = error instanceof RateLimitedError ? error.error : error;
      if (error instanceof RateLimitedError) rateLimit = error.state;
      if (!(failure instanceof ApiError)) {
        services.logger.log({
          level: 'error',
          message: 'request failed',
          request_id: requestId,
          operation_id: operation.operationId,
          error: failure instanceof Error ? (failure.stack ?? failure.message) : String(failure),
        });
      }
      ({ status, body, headers: extraHeaders } = errorBody(failure, requestId));
    }
    const headers = {
      ...extraHeaders,
      'X-Request-ID': requestId,
      ...rateLimitHeaders(rateLimit),
      ...(operation.deprecated
        ? deprecationHeaders(operation, validator.validPathParameters(operation, pathParams), bodyFields)
        : {}),
    };
    services.logger.log({
      level: status >= 500 ? 'error' : 'info',
      message: 'request',
      request_id: requestId,
      method: operation.method,
      path: url.pathname,
      operation_id: operation.operationId,
      status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      organization_id: auth?.organization.id ?? null,
      api_key_id: auth?.key.id ?? null,
    });
    return jsonResponse(status, body, headers);
  }

  /** Runs a request that carries an Idempotency-Key: replay, refuse, or run and remember. */
  async function runIdempotent(
    operation: OperationInfo,
    request: HandlerRequest<OperationId>,
    key: string,
    organizationId: string,
    wallNow: Date,
  ): Promise<{ status: number; body: string; headers: Record<string, string> }> {
    const outcome = await idempotency.begin(
      organizationId,
      key,
      { method: operation.method, route: operation.path, body: request.body },
      wallNow,
    );
    if (outcome.kind === 'replay') {
      return { ...outcome.answer, headers: { 'Idempotent-Replayed': 'true' } };
    }
    const handler = handlers[operation.operationId] as unknown as AnyHandler;
    try {
      const result = await handler(request, services);
      const answer = { status: result.status, body: JSON.stringify(result.body) };
      await idempotency.complete(organizationId, key, answer);
      return { ...answer, headers: result.headers ?? {} };
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        const failure = errorBody(error, request.requestId);
        await idempotency.complete(organizationId, key, { status: failure.status, body: failure.body });
      } else {
        await idempotency.release(organizationId, key).catch(() => undefined);
      }
      throw error;
    }
  }

  return { fetch: async (request) => hono.fetch(request), services, authenticator, rateLimiter, engine };
}

/**
 * The service's clock: in sandbox mode a sandbox clock (over the given one), so that the
 * sandbox operations can advance it; otherwise the given clock or the system's.
 */
function serviceClock(given: Clock | undefined, sandbox: boolean): Clock {
  if (!sandbox) return given ?? systemClock;
  return given instanceof SandboxClock ? given : new SandboxClock(given ?? systemClock);
}

function paramCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
