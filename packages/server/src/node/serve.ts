/**
 * Serves the application over HTTP with @hono/node-server, logs (`logger.ts`: a line per
 * request, per delivery attempt, at start and at shutdown), and stops cleanly on SIGINT and
 * SIGTERM.
 */
import { listenOrigin } from '../http/listen-origin.ts';
import { createApiHttpServer } from './api-http-server.ts';
import { createApp } from '../app.ts';
import { resolveWithSystemDns, webhookHostCheck } from './connect-guard.ts';
import { createNodeWebhookTransport } from './webhook-transport.ts';
import { serverDocs } from './docs-renderer.ts';
import { type Logger, silentLogger } from '../http/logger.ts';
import { createNodeLogger } from './logger.ts';
import { keepStatistics, type StatisticsKeeper, type StatisticsKeeperTimes } from './statistics-keeper.ts';
import { type ExpiredAnswersPurge, type ExpiredAnswersTimes, purgeExpiredAnswers } from './expired-answers.ts';
import { type ReclaimAfterStart, reclaimAfterStart } from './reclaim-after-start.ts';
import type { CorsPolicy } from '../http/middleware/cors.ts';
import type { RateLimitPolicy } from '../http/rate-limit.ts';
import type { ServerConfig } from '../services.ts';
import type { Store } from '../store/types.ts';

export interface ServeOptions {
  store: Store;
  port: number;
  host: string;
  config?: Partial<ServerConfig>;
  rateLimits?: Partial<RateLimitPolicy>;
  /** Trust a looked-up API key this long before reading it again. */
  authCacheTtlMs?: number;
  /** No log at all. */
  quiet?: boolean;
  /** Where the log goes; by default pino on standard output at `LOG_LEVEL` (`logger.ts`). */
  logger?: Logger;
  /** How often the engine looks for due steps (default 1 s). */
  engineIntervalMs?: number;
  /** How often the delivery worker looks for due retries (default 1 s); new replies wake it at once. */
  deliveryPollMs?: number;
  /** Origins a browser may call `/v1` from (`--cors-origin`); without it, no CORS header. */
  cors?: CorsPolicy;
  /**
   * When the tables are checked for stale statistics and dead row versions (where autovacuum
   * does not run): after listening, then how often, and after a bulk write (default 1 s, 30 s, 1 s).
   */
  statistics?: StatisticsKeeperTimes;
  /** When stored answers past their 24 hours are deleted: after listening, then how often (default 5 s, 10 minutes). */
  expiredAnswers?: ExpiredAnswersTimes;
  /** When the tables an erasure writes are vacuumed once after listening (default 3 s). */
  reclaimAfterStartMs?: number;
}

export interface RunningServer {
  url: string;
  /** Forgets cached API keys, so that a key revoked or an organization deactivated by an admin command applies at once. */
  forgetCachedKeys(): void;
  /**
   * Stops accepting, lets requests under way finish for `graceMs` (default 5 s), then closes
   * every connection still open, and stops the engine. A client that keeps a connection open
   * (a request half sent, or nothing) cannot hold the server up for longer, nor can a slow
   * webhook receiver: the delivery attempts still waiting for an answer when the grace ends
   * are cut short and handed back, due again at the next start and not counted.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /**
   * Closes every connection and cuts every delivery attempt short at once (a second Ctrl-C):
   * `close` then ends without the rest of its grace.
   */
  dropConnections(): void;
}

/** How long requests under way may take to finish when the server stops. */
export const defaultShutdownGraceMs = 5000;

export async function serve(options: ServeOptions): Promise<RunningServer> {
  const nodeLogger = options.quiet || options.logger ? null : createNodeLogger();
  const logger = options.quiet ? silentLogger : (options.logger ?? nodeLogger ?? silentLogger);
  // Deliveries leave through Node's sockets, so every resolved address is checked at connect
  // time (DNS rebinding, private ranges), which `fetch` cannot do.
  const insecure = options.config?.allowInsecureWebhooks === true;
  const webhookTransport = createNodeWebhookTransport({ allowInsecure: insecure });
  let statistics: StatisticsKeeper | undefined;
  let expiredAnswers: ExpiredAnswersPurge | undefined;
  let startReclaim: ReclaimAfterStart | undefined;
  const app = createApp({
    store: options.store,
    logger,
    config: options.config,
    rateLimits: options.rateLimits,
    authCacheTtlMs: options.authCacheTtlMs ?? 1000,
    webhookTransport,
    // Registration resolves the host too, so a name pointing inside answers 400 at once
    // rather than failing every delivery later.
    checkWebhookHost: webhookHostCheck(resolveWithSystemDns, { allowInsecure: insecure }),
    ...(options.cors ? { cors: options.cors } : {}),
    // `/docs` (the API reference page): no key, no budget; logged like every request.
    docs: serverDocs,
    // A batch import: the keeper (made once listening) checks the planner's statistics soon after.
    bulkWritten: () => statistics?.bulkWritten(),
  });
  // The engine runs due steps every second; the delivery worker drains the outbox at once
  // when a reply is enqueued and polls for retries (and for work of a process that died).
  // A restarted sandbox keeps the time its clock was advanced to (saved in the store).
  await app.engine.syncClock();
  app.engine.start({ intervalMs: options.engineIntervalMs, deliveryPollMs: options.deliveryPollMs });
  /** Aborted when the shutdown grace ends (or a second Ctrl-C): cuts delivery attempts short. */
  const graceOver = new AbortController();
  // The listener's own error answers carry the budget and are readable by an allowed page too.
  const server = createApiHttpServer(app.fetch, {
    answerHalfClosedClients: true,
    rateLimiter: app.rateLimiter,
    logger,
    ...(options.cors ? { cors: options.cors } : {}),
  });
  return new Promise((resolve, reject) => {
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      // SQL stores: statistics for the planner and vacuums where nothing else does them (autovacuum off, PGlite).
      statistics = keepStatistics(options.store, logger, options.statistics);
      expiredAnswers = purgeExpiredAnswers(options.store, logger, options.expiredAnswers);
      // An erasure whose own vacuum a stopped process never ran.
      startReclaim = reclaimAfterStart(options.store, logger, options.reclaimAfterStartMs);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : options.port;
      // An IPv6 address is bracketed in a URL (`http://[::1]:4010`).
      const url = `${listenOrigin(options.host) ?? `http://${options.host}`}:${port}`;
      logger.log({
        level: 'info',
        message: 'listening',
        url: `${url}/v1`,
        store: options.store.kind,
        sandbox: options.config?.sandbox === true,
        insecure_webhooks: insecure,
      });
      resolve({
        url,
        forgetCachedKeys: () => app.authenticator.invalidate(),
        dropConnections: () => {
          server.closeAllConnections();
          graceOver.abort();
        },
        async close({ graceMs = defaultShutdownGraceMs } = {}) {
          const closed = new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done())));
          // close() waits for every connection to end; idle ones end now, the rest after the grace.
          server.closeIdleConnections();
          // One grace for both: requests and delivery attempts under way when it ends are cut.
          const grace = setTimeout(() => {
            server.closeAllConnections();
            graceOver.abort();
          }, graceMs);
          try {
            await closed;
            await app.engine.stop({ abandon: graceOver.signal });
          } finally {
            clearTimeout(grace);
            // A check or purge under way ends before the store closes.
            await statistics?.stop();
            await expiredAnswers?.stop();
            await startReclaim?.stop();
          }
          webhookTransport.close();
          logger.log({ level: 'info', message: 'stopped', url: `${url}/v1` });
          nodeLogger?.flush();
        },
      });
    });
    // Not listening (port in use, no such interface): stop what started and say so.
    const failed = (error: Error) => {
      void app.engine.stop().finally(() => {
        webhookTransport.close();
        reject(error);
      });
    };
    server.once('error', failed);
  });
}
