/** What both entries (`@ocs/mock/node`, `@ocs/mock/browser`) export. */
export { createOcsMock, type OcsMock, type Scope } from './create-mock.ts';
export { defaultBaseUrl } from './base-url.ts';
export { OcsMockSetupError } from './in-process.ts';
export { OcsMockSandboxError } from './sandbox-error.ts';
export type {
  OcsMockSandbox,
  SandboxAdvanceOptions,
  SandboxAdvanceResult,
  SandboxEngageOptions,
  SandboxLeadTarget,
  SandboxReplyOptions,
  SandboxReplyResult,
} from './sandbox.ts';
export type {
  CampaignFixture,
  Clock,
  JournalOptions,
  LeadFixture,
  OcsMockFixtures,
  OcsMockOptions,
  RateLimitOptions,
} from './options.ts';
export type {
  DocumentedFailure,
  FailOptions,
  LatencyOptions,
  OcsMockScenarios,
  UnavailableOptions,
} from './scenarios.ts';
export type { ChaosKind, ChaosOptions, FaultOptions, TruncateOptions } from './fault-scenarios.ts';
export type { FaultKind } from './faults.ts';
export type {
  OcsMockRequest,
  OcsMockRequests,
  RecordedRequest,
  RecordedResponse,
  UnmatchedRequest,
} from './journal/types.ts';
export type { OcsMockData, OcsMockDataCopy, OcsMockMember } from './seed/data.ts';
export type { RegisteredWebhook } from './seed/fixtures.ts';
export type { HandlerOptions, TypedHttp, TypedHttpMethod } from './overrides/typed-http.ts';
export type {
  HttpMethod,
  PathsWith,
  TypedQuery,
  TypedResolver,
  TypedResolverInfo,
  TypedResponseBuilder,
  TypedResponseFactory,
} from './overrides/types.ts';
export type { OcsMockWebhooks, TriggeredEvent, TriggerOptions } from './webhooks/trigger.ts';
export type { ErrorCodeOf, ErrorStatusOf, OperationId } from './api-types.ts';
