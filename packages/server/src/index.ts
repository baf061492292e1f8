/**
 * @ocs/server: the reference server's application, web-standard (Node, MSW, browsers).
 * The Node listener, CLI and SQL drivers live in `@ocs/server/node`.
 */
export { type App, type AppOptions, createApp } from './app.ts';
export { type Clock, systemClock } from './domain/clock.ts';
export { ApiError } from './http/api-error.ts';
export { childLogger, type LogEntry, type Logger, type LogLevel, silentLogger } from './http/logger.ts';
export { operationTable, openApiDocument } from './openapi/document.ts';
export { handlers } from './routes/index.ts';
export { seedDemoOrganization } from './seed/demo.ts';
export { createApiKey, createOrganization } from './seed/organizations.ts';
export { allScopes } from './domain/api-keys.ts';
export type { AppServices, ServerConfig } from './services.ts';
export { createMemoryStore, type MemorySnapshot, type MemoryStore } from './store/memory/index.ts';
export type { RateLimitStore, Store } from './store/types.ts';
// For @ocs/mock: a seeded ID source, the rate limiter's parts and the error envelope, so
// that the mock's own answers (scenarios) are built as the application builds its own.
export { newId, withIdSource } from './domain/ids.ts';
export {
  defaultRateLimits,
  inProcessRateLimits,
  type RateLimitPolicy,
  rateLimitHeaders,
  type RateLimitState,
} from './http/rate-limit.ts';
export { requestIdFor } from './http/request-id.ts';
// For @ocs/mock's journal, which reads no more of a body than the API accepts.
export { maxBodyBytes } from './http/body.ts';
// For @ocs/mock's listener: a header sent twice is refused there as on the server.
export { answerHalfClosedClients } from './http/half-closed-clients.ts';
export { headerValues, type NodeBindings, withHeaderLines } from './http/header-lines.ts';
// For @ocs/mock: the same CORS wrapper around the standalone mock's answers (scenarios included).
export { cors, type CorsPolicy, corsHeaders, parseCorsOrigins } from './http/middleware/cors.ts';
export { listenOrigin } from './http/listen-origin.ts';
export { RequestValidator } from './http/validation.ts';
export { answerText, errorBody, jsonResponse } from './http/responses.ts';
export type { OperationInfo } from './openapi/document.ts';
// For @ocs/mock: the sandbox clock it resets, and the `prospect_response` builder with the
// reply classifier and agent, so that the mock's webhook trigger shapes its event with the
// same code as the service's deliveries.
export { SandboxClock } from './domain/clock.ts';
export {
  buildProspectResponse,
  conversationOwner,
  eventTimestamp,
  type ProspectResponseEvent,
  prospectResponseKey,
} from './delivery/payload.ts';
export { analyseReply } from './domain/replies/analysis.ts';
export { builtInClassifier, type ReplyChannel } from './domain/replies/classifier.ts';
export { type AiResponse, decideReply } from './domain/replies/agent.ts';
export { defaultResponderSettings } from './domain/responder.ts';
// The mock's delivery transport: the server's fetch transport over a fetch of its own.
export { createFetchTransport } from './delivery/fetch-transport.ts';
// For @ocs/mock: its request journal forgets an erased lead with the erasure's own rules.
export {
  conversationTexts,
  erasedConversationFields,
  erasedJson,
  namesLead,
  personalValues,
} from './domain/erasure.ts';
export { erasedLeadFields } from './store/memory/leads.ts';
// For @ocs/mock: `/docs`, the API reference page, in front of the standalone mock.
export { type DocsRouteOptions, rendererModule, withDocs } from './docs/docs-route.ts';
export { shownExtensions } from './docs/reference-page.ts';
