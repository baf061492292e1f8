/**
 * `@ocs/sdk/zod`: zod 4 schemas generated from the OpenAPI document, for opt-in runtime
 * validation. One export per component schema (`ProspectResponseEvent`, `Campaign`...),
 * with its type of the same name, plus `responseSchemas[operationId][status]`,
 * `successResponseSchemas[operationId]` (for `createClient({ validate })`) and
 * `requestBodySchemas[operationId]`. Unknown fields are kept and `x-extensible-enum` fields
 * accept any string, so a field or value the API adds later does not fail validation.
 *
 * Each schema is a separate, side-effect-free export: a bundle keeps only those imported.
 *
 * @example
 * ```ts
 * import { verifyAndParse } from '@ocs/sdk/webhooks';
 * import { ProspectResponseEvent } from '@ocs/sdk/zod';
 *
 * const event = await verifyAndParse(request, { secret, schema: ProspectResponseEvent });
 * ```
 */
export * from './generated/zod.ts';
