/**
 * The application: a fetch handler, `(Request) => Promise<Response>`, over a store. It uses
 * only web-standard APIs, so the same application serves in Node, inside MSW and in a
 * browser. Routes, scopes, validation and deprecations come from the OpenAPI document.
 *
 * A request is routed (`http/router.ts`; unknown path: 404; outside `/v1`, the documents,
 * `/docs` and the connect links' page `connect/connect-route.ts`), then runs the pipeline
 * (`http/request-pipeline.ts`), one middleware per step under `http/middleware/`, in this
 * order: access log; response headers (`X-Request-ID`, `RateLimit-*`, deprecation) on every
 * answer; the error envelope; authentication; rate limit; scope; JSON body (413 past 1 MB,
 * 415 for another media type); validation; with `cacheAnswers`, the answer cache;
 * idempotency where the operation declares it; the handler. What handlers share is built in
 * `app-services.ts`.
 *
 * With `cors`, CORS wraps all of it (`http/middleware/cors.ts`): a preflight under `/v1`
 * answers before routing, needing no key and counting against no budget, and every answer
 * under `/v1`, errors and 404s included, carries the headers a browser needs to read it.
 */
import { createAppServices } from './app-services.ts';
import type { Clock } from './domain/clock.ts';
import type { WebhookTransport } from './delivery/types.ts';
import type { DocsRouteOptions } from './docs/docs-route.ts';
import type { OutboundChannel } from './engine/channel.ts';
import type { Engine } from './engine/engine.ts';
import { Authenticator } from './http/auth.ts';
import { defaultIdempotency, IdempotencyKeys, type IdempotencyPolicy } from './http/idempotency.ts';
import type { Logger } from './http/logger.ts';
import { cors, type CorsPolicy } from './http/middleware/cors.ts';
import { defaultRateLimits, inProcessRateLimits, type RateLimitPolicy, RateLimiter } from './http/rate-limit.ts';
import { createRequestPipeline } from './http/request-pipeline.ts';
import { createRouter } from './http/router.ts';
import { RequestValidator } from './http/validation.ts';
import { handlers as allHandlers } from './routes/index.ts';
import type { PartialHandlers } from './routes/registry.ts';
import type { AppServices, ServerConfig, WebhookHostCheck } from './services.ts';
import type { DataChanges } from './http/middleware/answer-cache.ts';
import type { MemoryStore } from './store/memory/index.ts';
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
  /** Told after a write of many rows (`AppServices.bulkWritten`); the Node server passes its statistics keeper's. */
  bulkWritten?: () => void;
  /** Which origins a browser may call `/v1` from; without it, no CORS header is sent. */
  cors?: CorsPolicy;
  /** Serves the API reference at `/docs` (the reference server's Redoc, `node/docs-renderer.ts`). */
  docs?: DocsRouteOptions;
  /**
   * Keeps the answers of a few read operations (the leads page) as their JSON text until the
   * store's data next changes (`http/middleware/answer-cache.ts`). Only the memory store
   * tells when its data changes; with another store this is refused. The mock turns it on.
   */
  cacheAnswers?: boolean;
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
  const { services, wallClock } = createAppServices(options);
  const { store, logger } = services;
  const authenticator = new Authenticator(store, options.authCacheTtlMs ?? 0);
  // Only a PostgreSQL server is shared by several processes; everywhere else the counters
  // can live in this process (see inProcessRateLimits).
  const rateLimiter = new RateLimiter(
    options.rateLimitCounters ?? (store.kind === 'postgres' ? store.rateLimits : inProcessRateLimits()),
    { ...defaultRateLimits, ...options.rateLimits },
  );
  const handle = createRequestPipeline({
    services,
    wallClock,
    authenticator,
    rateLimiter,
    idempotencyKeys: new IdempotencyKeys(store, { ...defaultIdempotency, ...options.idempotency }),
    validator: options.validator ?? new RequestValidator(),
    ...(options.cacheAnswers ? { dataChanges: dataChangesOf(store) } : {}),
  });
  const router = createRouter({
    logger,
    rateLimiter,
    handlers: options.handlers ?? allHandlers,
    ...(options.docs ? { docs: options.docs } : {}),
    connect: services,
    handle,
  });
  const route = async (request: Request) => router.fetch(request);
  const fetch = options.cors ? cors(withRefusalLog(options.cors, logger))(route) : route;
  return { fetch, services, authenticator, rateLimiter, engine: services.engine };
}

/** The memory store's data version and its changes; another store cannot tell when its data changes. */
function dataChangesOf(store: Store): DataChanges {
  if (store.kind !== 'memory' || !('dataVersion' in store)) {
    throw new TypeError(`cacheAnswers needs the memory store (its data version), not ${store.kind}.`);
  }
  const memory = store as MemoryStore;
  return { version: () => memory.dataVersion(), onChange: (listener) => memory.onDataChange(listener) };
}

/** A refused preflight is logged (unless the policy says where else to tell it): the operator sees which origin to allow. */
function withRefusalLog(policy: CorsPolicy, logger: Logger): CorsPolicy {
  return {
    onRefused: (origin) => logger.log({ level: 'warn', message: 'CORS preflight refused: origin not allowed', origin }),
    ...policy,
  };
}
