/**
 * Types of the resource groups: every method takes exactly its function's arguments after
 * `client` and resolves to exactly its result; a list method iterates the function's items.
 * Checked by `npm run lint` (tsc); nothing here runs.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { resourceGroups } from '../src/generated/resources.ts';
import type { createCampaign, getCampaign } from '../src/index.ts';
import {
  listLeads,
  paginate,
  type ClientOptions,
  type OcsClient,
  type OperationArgs,
  type OperationId,
  type OperationResult,
  type Page,
} from '../src/index.ts';
import { Ocs, type ListPromise, type OcsPromise } from '../src/resources.ts';

declare const ocs: Ocs;
declare const client: OcsClient;

type Groups = typeof resourceGroups;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type AfterClient<F> = F extends (client: OcsClient, ...args: infer Rest) => unknown ? Rest : never;
type Arguments<F> = F extends (...args: infer Args) => unknown ? Args : never;
type Result<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

/** `group.method` of each method whose arguments or awaited result differ from its function's. */
type Mismatches = {
  [G in keyof Groups & keyof Ocs]: {
    [M in keyof Groups[G] & keyof Ocs[G]]: [
      Equal<Arguments<Ocs[G][M]>, AfterClient<Groups[G][M]>>,
      Equal<Result<Ocs[G][M]>, Result<Groups[G][M]>>,
    ] extends [true, true]
      ? never
      : `${G}.${M & string}`;
  }[keyof Groups[G] & keyof Ocs[G]];
}[keyof Groups & keyof Ocs];

/** The operationIds the groups reach. */
type Reached = {
  [G in keyof Groups]: {
    [M in keyof Groups[G]]: Groups[G][M] extends { readonly operationId: infer Id } ? Id : never;
  }[keyof Groups[G]];
}[keyof Groups];

describe('every resource method', () => {
  it('takes the arguments of its function and resolves to its result, for all operations', () => {
    expectTypeOf<Mismatches>().toEqualTypeOf<never>();
    expectTypeOf<Reached>().toEqualTypeOf<OperationId>();
    expectTypeOf<keyof Ocs>().toEqualTypeOf<keyof Groups | 'client'>();
  });

  it('for instance campaigns.create and campaigns.get', () => {
    expectTypeOf(ocs.campaigns.create).parameters.toEqualTypeOf<OperationArgs<'createCampaign'>>();
    expectTypeOf(ocs.campaigns.create).parameters.toEqualTypeOf<AfterClient<typeof createCampaign>>();
    expectTypeOf(ocs.campaigns.create).returns.toEqualTypeOf<OcsPromise<OperationResult<'createCampaign'>>>();
    expectTypeOf<Awaited<ReturnType<typeof ocs.campaigns.get>>>().toEqualTypeOf<
      Awaited<ReturnType<typeof getCampaign>>
    >();
    expectTypeOf(ocs.campaigns.get).toBeCallableWith(
      { campaign_id: 'x' },
      { requestId: 'r', timeoutMs: 1, maxRetries: 0 },
    );
    expectTypeOf(ocs.campaigns.create).toBeCallableWith(
      { name: 'A' },
      { idempotencyKey: 'k', headers: { 'X-A': 'a' } },
    );
    expectTypeOf(ocs.auth.verify).toBeCallableWith();
  });

  it('refuses what its function refuses', () => {
    // @ts-expect-error campaign_id is required
    void ocs.campaigns.get();
    // @ts-expect-error unknown keys are refused
    void ocs.campaigns.get({ campaign_id: 'x', campaignId: 'x' });
    // @ts-expect-error getCampaign sends no Idempotency-Key
    void ocs.campaigns.get({ campaign_id: 'x' }, { idempotencyKey: 'k' });
  });

  it('gives withResponse() and asResponse() as the functions of the same names do', async () => {
    const { data, response } = await ocs.campaigns.get({ campaign_id: 'x' }).withResponse();
    expectTypeOf(data).toEqualTypeOf<OperationResult<'getCampaign'>>();
    expectTypeOf(response).toEqualTypeOf<Response>();
    expectTypeOf(ocs.campaigns.get({ campaign_id: 'x' }).asResponse()).toEqualTypeOf<Promise<Response>>();
    expectTypeOf(ocs.campaigns.get({ campaign_id: 'x' })).toExtend<Promise<OperationResult<'getCampaign'>>>();
  });
});

describe('a list method', () => {
  it('awaited: the page of the function form; iterated: the items of paginate', async () => {
    const call = ocs.leads.list({ campaign_id: 'x', limit: 50 });
    type Lead = Awaited<ReturnType<typeof listLeads>>['leads'][number];
    expectTypeOf(call).toEqualTypeOf<ListPromise<OperationResult<'listLeads'>, Lead>>();
    expectTypeOf(await call).toEqualTypeOf<Awaited<ReturnType<typeof listLeads>>>();
    for await (const lead of call) expectTypeOf(lead).toEqualTypeOf<Lead>();
    for await (const lead of paginate(client, listLeads)) expectTypeOf(lead).toEqualTypeOf<Lead>();
    for await (const page of call.pages()) expectTypeOf(page).toEqualTypeOf<Page<Lead>>();
    expectTypeOf(call.toArray({ limit: 10 })).toEqualTypeOf<Promise<Lead[]>>();
    expectTypeOf(call.paginate).toBeCallableWith({ maxItems: 500, signal: AbortSignal.timeout(1) });
    // @ts-expect-error toArray needs a limit
    void call.toArray();
  });

  it('only on list operations', () => {
    expectTypeOf(ocs.campaigns.get({ campaign_id: 'x' })).not.toHaveProperty('pages');
    expectTypeOf(ocs.crm.listDeals()).toHaveProperty('pages');
    // GET /campaigns/{id}/bookings is not paged: one answer.
    expectTypeOf(ocs.analytics.listBookings({ campaign_id: 'x' })).not.toHaveProperty('pages');
  });
});

describe('Ocs', () => {
  it('is made from client options or a client', () => {
    expectTypeOf(Ocs).toBeConstructibleWith();
    expectTypeOf(Ocs).toBeConstructibleWith({ apiKey: 'ocs_x_y', baseUrl: 'http://127.0.0.1:4011' } as ClientOptions);
    expectTypeOf(Ocs).toBeConstructibleWith(client);
    expectTypeOf(ocs.client).toEqualTypeOf<OcsClient>();
  });
});
