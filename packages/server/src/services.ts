/** What handlers may use: the store, the clock and the configuration of this server. */
import type { Clock } from './domain/clock.ts';
import type { Engine } from './engine/engine.ts';
import type { Logger } from './http/logger.ts';
import type { Store } from './store/types.ts';

export interface ServerConfig {
  /** Sandbox operations and behaviour (issue 5); on by default for `npm start`. */
  sandbox: boolean;
  /** Allow `http://` and loopback webhook receivers (development only; off by default). */
  allowInsecureWebhooks: boolean;
}

export interface AppServices {
  store: Store;
  clock: Clock;
  logger: Logger;
  config: ServerConfig;
  /** Runs due steps and deliveries; in sandbox mode, advances the sandbox clock. */
  engine: Engine;
  /**
   * Resolves a webhook's host at registration and says why it is not public (null when it
   * is, or when it cannot be resolved now: delivery checks again at connect time). Only
   * where DNS is at hand (the Node server); elsewhere registration checks the URL's text.
   */
  checkWebhookHost?: WebhookHostCheck;
  /**
   * Told after a write of many rows (a batch import): the Node server then checks the
   * planner's statistics soon after, rather than at its next interval
   * (node/statistics-keeper.ts, decision 0006). Absent elsewhere.
   */
  bulkWritten?: () => void;
}

export type WebhookHostCheck = (hostname: string) => Promise<string | null>;
