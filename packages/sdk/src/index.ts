/**
 * @ocs/sdk: the typed client of the Outreach Campaign Service API. Import only what you
 * use; every named operation is its own export, and bundlers drop the others.
 *
 * @example
 * import { createClient, createCampaign, paginate, listLeads } from '@ocs/sdk';
 */
export { createClient } from './client.ts';
export type { ClientOptions, OcsClient, ResponseValidator } from './client.ts';
export type { Logger } from './deprecation.ts';
export type { Middleware } from 'openapi-fetch';
export {
  OcsAbortError,
  OcsApiError,
  OcsAuthenticationError,
  OcsBadRequestError,
  OcsConflictError,
  OcsConnectionError,
  OcsError,
  OcsInternalServerError,
  OcsNotFoundError,
  OcsPayloadTooLargeError,
  OcsPermissionDeniedError,
  OcsRateLimitError,
  OcsServiceUnavailableError,
  OcsTimeoutError,
} from './errors.ts';
export type { ErrorBody, ErrorCode, ErrorDetails } from './errors.ts';
export * from './generated/operations.ts';
export { importLeads } from './import-leads.ts';
export type { LeadImportItem, LeadImportResult } from './import-leads.ts';
export { createOcs } from './ocs.ts';
export type { OcsMethods } from './ocs.ts';
export type { Operation } from './operation.ts';
export { paginate } from './pagination.ts';
export { OcsResult, resultMeta } from './result.ts';
export { asResponse, withResponse } from './response.ts';
export type { ItemOf, Page, PaginateOptions, PaginateParams, Paginator } from './pagination.ts';
export { parseRateLimit } from './rate-limit.ts';
export type { RateLimit } from './rate-limit.ts';
export type {
  CallOptions,
  ErrorCodeAtStatus,
  ErrorCodeOf,
  IdempotentCallOptions,
  OperationArgs,
  OperationData,
  OperationId,
  OperationOptions,
  OperationParams,
  OperationResult,
  ResultMeta,
  WithMeta,
} from './types.ts';
export type { components, operations, paths } from './generated/openapi.ts';
