/**
 * `@ocs/sdk/resources`: every operation as a method of a resource group,
 * `ocs.campaigns.create(params, options)`, as the OpenAI, Anthropic and Stripe SDKs are
 * called. The groups and their method names are generated from the document's tags
 * (src/generated/resources.ts); each method is the named operation of `@ocs/sdk` bound to
 * one client, with the same params, options and result, returned as an `OcsPromise` (a
 * `ListPromise` for a list). A subpath of its own: an application that imports the
 * functions from `@ocs/sdk` never bundles the groups.
 */
import { ListPromise, OcsPromise } from './api-promise.ts';
import { resourceGroups } from './generated/resources.ts';
import {
  createClient,
  type ClientOptions,
  type ItemOf,
  type OcsClient,
  type Operation,
  type OperationArgs,
  type OperationResult,
} from './index.ts';

export { ListPromise, OcsPromise };

type Groups = typeof resourceGroups;

/** The resource method of a named operation: same arguments, same awaited result. */
export type ResourceMethod<F> =
  F extends Operation<infer Id, infer Items>
    ? (
        ...args: OperationArgs<Id>
      ) => Items extends string ? ListPromise<OperationResult<Id>, ItemOf<Id, Items>> : OcsPromise<OperationResult<Id>>
    : never;

/** Every resource group of the document, each with its methods. */
export type ResourceGroups = {
  readonly [Group in keyof Groups]: { readonly [Name in keyof Groups[Group]]: ResourceMethod<Groups[Group][Name]> };
};

type LooseOperation = Operation & { readonly items?: string };

function bind(client: OcsClient, operation: LooseOperation) {
  return operation.items
    ? (params?: Record<string, unknown>, options?: Record<string, unknown>) =>
        new ListPromise(client, operation, params, options)
    : (params?: Record<string, unknown>, options?: Record<string, unknown>) =>
        new OcsPromise(client, operation, params, options);
}

/**
 * Every operation in its resource group, over a new client (or the one given).
 *
 * @example
 * import { Ocs } from '@ocs/sdk/resources';
 *
 * const ocs = new Ocs({ apiKey: process.env.OCS_API_KEY });
 * const { campaign_id } = await ocs.campaigns.create({ name: 'Fintech CFOs' });
 * for await (const lead of ocs.leads.list({ campaign_id })) console.log(lead.email);
 */
// The class and the interface below are one: the constructor defines every group of the
// generated table, and the interface types them (a class cannot declare mapped members).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Ocs {
  /** The client underneath: the path API (`ocs.client.GET(...)`), `use()` and `rateLimit`. */
  readonly client: OcsClient;

  constructor(options: ClientOptions | OcsClient = {}) {
    const client = '~ocs' in options ? options : createClient(options);
    this.client = client;
    for (const [group, methods] of Object.entries(resourceGroups)) {
      const bound: Record<string, unknown> = {};
      for (const [name, operation] of Object.entries(methods)) bound[name] = bind(client, operation as LooseOperation);
      Object.defineProperty(this, group, { value: bound, enumerable: true });
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Ocs extends ResourceGroups {}
