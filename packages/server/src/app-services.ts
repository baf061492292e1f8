/**
 * What the handlers and the engine share, built from the app's options: the store, the
 * service clock (the sandbox one in sandbox mode) with the wall clock under it, the logger,
 * the configuration, and the engine with its delivery worker.
 */
import type { AppOptions } from './app.ts';
import { type Clock, SandboxClock, systemClock, wallClockOf } from './domain/clock.ts';
import { createFetchTransport } from './delivery/fetch-transport.ts';
import { createDeliveryWorker } from './delivery/worker.ts';
import { sandboxChannel } from './engine/channel.ts';
import { createEngine } from './engine/engine.ts';
import { silentLogger } from './http/logger.ts';
import type { AppServices, ServerConfig } from './services.ts';

export function createAppServices(options: AppOptions): { services: AppServices; wallClock: Clock } {
  const config: ServerConfig = { sandbox: false, allowInsecureWebhooks: false, ...options.config };
  const logger = options.logger ?? silentLogger;
  const clock = serviceClock(options.clock, config.sandbox);
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
    ...(options.bulkWritten ? { bulkWritten: options.bulkWritten } : {}),
  };
  // Budgets keep real time even in sandbox mode: advancing the sandbox clock must not refill
  // a rate limit, expire an idempotency key or an API key.
  return { services, wallClock: wallClockOf(clock) };
}

/**
 * The service's clock: in sandbox mode a sandbox clock (over the given one), so that the
 * sandbox operations can advance it; otherwise the given clock or the system's.
 */
function serviceClock(given: Clock | undefined, sandbox: boolean): Clock {
  if (!sandbox) return given ?? systemClock;
  return given instanceof SandboxClock ? given : new SandboxClock(given ?? systemClock);
}
