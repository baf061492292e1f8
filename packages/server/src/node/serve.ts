/**
 * Serves the application over HTTP with @hono/node-server, logs a JSON line per request,
 * and stops cleanly on SIGINT and SIGTERM.
 */
import { serve as serveHono } from '@hono/node-server';
import { createApp } from '../app.ts';
import { jsonLineLogger } from '../http/logger.ts';
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
  quiet?: boolean;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export function serve(options: ServeOptions): Promise<RunningServer> {
  const logger = options.quiet ? undefined : jsonLineLogger((line) => process.stdout.write(line));
  const app = createApp({
    store: options.store,
    logger,
    config: options.config,
    rateLimits: options.rateLimits,
    authCacheTtlMs: options.authCacheTtlMs ?? 1000,
  });
  return new Promise((resolve) => {
    const server = serveHono({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
      resolve({
        url: `http://${options.host}:${info.port}`,
        close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
  });
}
