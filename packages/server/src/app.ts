/**
 * The application: a fetch handler, `(Request) => Promise<Response>`, over a store. It uses
 * only web-standard APIs, so the same application serves in Node, inside MSW and in a
 * browser. Routes, scopes, validation and deprecations come from the OpenAPI document.
 *
 * A request is routed (unknown path: 404), then runs the pipeline, one middleware per step
 * under `http/middleware/`, in this order: access log; response headers (`X-Request-ID`,
 * `RateLimit-*`, deprecation) on every answer; the error envelope; authentication; rate
 * limit; scope; JSON body (413 past 1 MB, 415 for another media type); validation;
 * idempotency where the operation declares it; the handler.
 *
 * With `cors`, CORS wraps all of it (`http/middleware/cors.ts`): a preflight under `/v1`
 * answers before routing, needing no key and counting against no budget, and every answer
 * under `/v1`, errors and 404s included, carries the headers a browser needs to read it.
 */
import { type Context, Hono } from 'hono';
import { type Clock, SandboxClock, systemClock, wallClockOf } from './domain/clock.ts';
import { createFetchTransport } from './delivery/fetch-transport.ts';
import type { WebhookTransport } from './delivery/types.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { type OutboundChannel, sandboxChannel } from './engine/channel.ts';
import { docsPaths, docsResponder, type DocsRouteOptions } from './docs/docs-route.ts';
import { createEngine, type Engine } from './engine/engine.ts';
import { notFound } from './http/api-error.ts';
import { Authenticator } from './http/auth.ts';
import { defaultIdempotency, IdempotencyKeys, type IdempotencyPolicy } from './http/idempotency.ts';
import { type Logger, silentLogger } from './http/logger.ts';
import { accessLog, logRequest } from './http/middleware/access-log.ts';
import { authenticate } from './http/middleware/authenticate.ts';
import { compose } from './http/middleware/compose.ts';
import { cors, type CorsPolicy } from './http/middleware/cors.ts';
import type { AnyHandler, RequestContext } from './http/middleware/context.ts';
import { errorEnvelope } from './http/middleware/error-envelope.ts';
import { idempotency } from './http/middleware/idempotency.ts';
import { jsonBody } from './http/middleware/json-body.ts';
import { rateLimit } from './http/middleware/rate-limit.ts';
import { responseHeaders } from './http/middleware/response-headers.ts';
import { runHandler } from './http/middleware/run-handler.ts';
import { scope } from './http/middleware/scope.ts';
import { validate } from './http/middleware/validate.ts';
import {
  defaultRateLimits,
  inProcessRateLimits,
  type RateLimitPolicy,
  RateLimiter,
  rateLimitHeaders,
} from './http/rate-limit.ts';
import { requestIdFor } from './http/request-id.ts';
import { errorBody, jsonResponse } from './http/responses.ts';
import { RequestValidator } from './http/validation.ts';
import { type OperationInfo, operationTable } from './openapi/document.ts';
import { servedDocuments } from './openapi/served.ts';
import { handlers as allHandlers } from './routes/index.ts';
import type { PartialHandlers } from './routes/registry.ts';
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
  /** Which origins a browser may call `/v1` from; without it, no CORS header is sent. */
  cors?: CorsPolicy;
  /** Serves the API reference at `/docs` (the reference server's Redoc, `node/docs-renderer.ts`). */
  docs?: DocsRouteOptions;
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
    logger,
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
  const idempotencyKeys = new IdempotencyKeys(options.store, { ...defaultIdempotency, ...options.idempotency });
  const validator = options.validator ?? new RequestValidator();
  const handlers = options.handlers ?? allHandlers;

  const hono = new Hono({ strict: true });
  /**
   * An answer given outside the pipeline (the documents, `/docs`, an unrouted path's 404):
   * it carries a request ID and writes the same access line, with no operation.
   */
  const outsidePipeline =
    (answer: (request: Request, requestId: string) => Response | Promise<Response>) => async (c: Context) => {
      const started = performance.now();
      const requestId = requestIdFor(c.req.raw);
      const response = await answer(c.req.raw, requestId);
      response.headers.set('X-Request-ID', requestId);
      const path = new URL(c.req.url).pathname;
      logRequest(logger, {
        requestId,
        method: c.req.method,
        path,
        operationId: null,
        status: response.status,
        started,
      });
      return response;
    };
  for (const [path, document] of Object.entries(servedDocuments)) {
    hono.get(
      path,
      outsidePipeline(
        async () => new Response(await document.body(), { headers: { 'Content-Type': document.contentType } }),
      ),
    );
  }
  if (options.docs) {
    const docs = docsResponder(options.docs);
    for (const path of docsPaths)
      hono.get(
        path,
        outsidePipeline((request) => docs(new URL(request.url).pathname)),
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
  hono.notFound(
    outsidePipeline((request, requestId) => {
      const failure = errorBody(
        notFound(`No endpoint matches ${request.method} ${new URL(request.url).pathname}.`),
        requestId,
      );
      return jsonResponse(failure.status, failure.body, rateLimitHeaders(rateLimiter.untouched()));
    }),
  );
  hono.onError((error, c) => {
    // Only reached when the pipeline itself fails; handle() answers every API error.
    const requestId = requestIdFor(c.req.raw);
    services.logger.log({ level: 'error', message: 'unhandled error', request_id: requestId, error: String(error) });
    const failure = errorBody(error, requestId);
    return jsonResponse(failure.status, failure.body, { 'X-Request-ID': requestId });
  });

  const pipeline = compose([
    accessLog(logger),
    responseHeaders(validator),
    errorEnvelope(logger),
    authenticate(authenticator),
    rateLimit(rateLimiter),
    scope,
    jsonBody,
    validate(validator),
    idempotency(idempotencyKeys),
    runHandler(services),
  ]);

  async function handle(
    operation: OperationInfo,
    handler: AnyHandler,
    request: Request,
    pathParams: Record<string, string>,
  ): Promise<Response> {
    const context: RequestContext = {
      request,
      url: new URL(request.url),
      operation,
      handler,
      pathParams,
      requestId: requestIdFor(request),
      now: services.clock.now(),
      wallNow: wallClock.now(),
      rateLimit: rateLimiter.untouched(),
    };
    await pipeline(context);
    const { answer } = context;
    if (!answer) throw new Error(`${operation.operationId}: the pipeline gave no answer`);
    return jsonResponse(answer.status, answer.body, answer.headers);
  }

  const route = async (request: Request) => hono.fetch(request);
  const fetch = options.cors ? cors(withRefusalLog(options.cors, logger))(route) : route;
  return { fetch, services, authenticator, rateLimiter, engine };
}

/**
 * The service's clock: in sandbox mode a sandbox clock (over the given one), so that the
 * sandbox operations can advance it; otherwise the given clock or the system's.
 */
function serviceClock(given: Clock | undefined, sandbox: boolean): Clock {
  if (!sandbox) return given ?? systemClock;
  return given instanceof SandboxClock ? given : new SandboxClock(given ?? systemClock);
}

/** A refused preflight is logged (unless the policy says where else to tell it): the operator sees which origin to allow. */
function withRefusalLog(policy: CorsPolicy, logger: Logger): CorsPolicy {
  return {
    onRefused: (origin) => logger.log({ level: 'warn', message: 'CORS preflight refused: origin not allowed', origin }),
    ...policy,
  };
}

function paramCount(path: string): number {
  return (path.match(/\{/g) ?? []).length;
}
