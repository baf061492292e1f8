/**
 * The API's shapes, from the generated types of @ocs/sdk: the mock's data and its typed
 * helpers use them, so that they follow the OpenAPI document without a shape written here.
 */
import type { OperationParams } from '@ocs/sdk';
import type { components, operations } from '@ocs/sdk/types';

type Schemas = components['schemas'];

export type OperationId = keyof operations;
export type Campaign = Schemas['Campaign'];
/** Bodies as a client sends them: fields with a default in the document are optional. */
export type CampaignInput = OperationParams<'createCampaign'>;
export type Lead = Schemas['Lead'];
/** One lead as `POST /leads` takes it (its single form; the batch form is `{ leads: LeadInput[] }`). */
export type LeadInput = Exclude<OperationParams<'createLead'>, { leads: unknown }>;
export type SenderAccount = Schemas['SenderAccount'];
export type PipelineDetail = Schemas['PipelineDetail'];
export type Stage = Schemas['Stage'];
export type Sequence = Schemas['Sequence'];
export type WebhookInput = Omit<OperationParams<'createWebhook'>, 'campaign_id'>;
export type ErrorBody = Schemas['ErrorBody'];
export type ErrorDetails = Schemas['ErrorDetails'];
export type ProspectResponseEvent = Schemas['ProspectResponseEvent'];
export type SandboxReply = Schemas['SandboxReply'];
export type SandboxEngagement = Schemas['SandboxEngagement'];
export type SandboxEngagementInput = Schemas['SandboxEngagementInput'];
export type SandboxMessage = Schemas['SandboxMessage'];
export type SandboxDelivery = Schemas['SandboxDelivery'];
/** The sandbox clock as the API answers it (`now`, `offset_seconds`). */
export type SandboxClockView = Schemas['SandboxClock'];

type Responses<Id extends OperationId> = operations[Id]['responses'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The error statuses an operation documents (`400`, `404`, `409`, `429`...). */
export type ErrorStatusOf<Id extends OperationId> =
  Extract<keyof Responses<Id>, number> extends infer S
    ? S extends number
      ? `${S}` extends `4${string}` | `5${string}`
        ? S
        : never
      : never
    : never;

/** The error codes an operation documents with the status `S`. */
export type ErrorCodeOf<Id extends OperationId, S extends ErrorStatusOf<Id> = ErrorStatusOf<Id>> =
  JsonOf<Responses<Id>[S]> extends { error: infer C } ? C : never;
