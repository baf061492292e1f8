/**
 * @ocs/server: the reference server's application, web-standard (Node, MSW, browsers).
 * The Node listener, CLI and SQL drivers live in `@ocs/server/node`.
 */
export { type App, type AppOptions, createApp } from './app.ts';
export { type Clock, systemClock } from './domain/clock.ts';
export { ApiError } from './http/api-error.ts';
export { jsonLineLogger, type Logger, silentLogger } from './http/logger.ts';
export { operationTable, openApiDocument } from './openapi/document.ts';
export { handlers } from './routes/index.ts';
export { seedDemoOrganization } from './seed/demo.ts';
export { createApiKey, createOrganization } from './seed/organizations.ts';
export type { AppServices, ServerConfig } from './services.ts';
export { createMemoryStore, type MemoryStore } from './store/memory/index.ts';
export type { Store } from './store/types.ts';
