/**
 * `createOcs`: every operation as a method of one object (`ocs.getCampaign(params)`),
 * and `ocs.paginate.listLeads(params)`. Convenient, but it brings every operation into
 * a bundle; import the functions themselves to pay only for what you call. The same
 * operations by resource group (`ocs.campaigns.get(params)`) are `Ocs` of
 * `@ocs/sdk/resources` (src/resources.ts).
 */
import { createClient, type ClientOptions, type OcsClient } from './client.ts';
import { operationTable } from './generated/operations.ts';
import type { Operation } from './operation.ts';
import { paginate, type ItemOf, type PaginateOptions, type PaginateParams, type Paginator } from './pagination.ts';
import type { OperationArgs, OperationResult } from './types.ts';

type Operations = typeof operationTable;
type LooseOperation = ((client: OcsClient, params?: unknown, options?: unknown) => Promise<unknown>) & {
  readonly items?: string;
};

type Method<F> =
  F extends Operation<infer Id, string | undefined>
    ? (...args: OperationArgs<Id>) => Promise<OperationResult<Id>>
    : never;

type Paginators = {
  [
    K in keyof Operations as Operations[K] extends { readonly items: string } ? K : never
  ]: Operations[K] extends Operation<infer Id, infer Items extends string>
    ? (params?: PaginateParams<Id>, options?: PaginateOptions) => Paginator<ItemOf<Id, Items>>
    : never;
};

/** Every operation as a method, bound to one client. */
export type OcsMethods = { readonly [K in keyof Operations]: Method<Operations[K]> } & {
  /** The client underneath: the typed path API (`ocs.client.GET(...)`) and `rateLimit`. */
  readonly client: OcsClient;
  /** An iterator for each list operation. */
  readonly paginate: Paginators;
};

/**
 * Every operation as a method of one object, over a new client (or the one given).
 *
 * @example
 * const ocs = createOcs({ apiKey: process.env.OCS_API_KEY });
 * const { campaign } = await ocs.createCampaign({ name: 'Fintech CFOs' });
 * for await (const lead of ocs.paginate.listLeads({ campaign_id: campaign?.id })) console.log(lead.email);
 */
export function createOcs(options: ClientOptions | OcsClient = {}): OcsMethods {
  const client = '~ocs' in options ? options : createClient(options);
  const ocs: Record<string, unknown> = { client };
  const paginators: Record<string, unknown> = {};
  for (const [name, operation] of Object.entries(operationTable) as [string, LooseOperation][]) {
    ocs[name] = (params?: unknown, callOptions?: unknown) => operation(client, params, callOptions);
    if (operation.items) {
      paginators[name] = (params?: unknown, paginateOptions?: PaginateOptions) =>
        paginate(client, operation as never, params as never, paginateOptions);
    }
  }
  ocs.paginate = paginators;
  return ocs as OcsMethods;
}
