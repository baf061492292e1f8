/**
 * Types of the request journal: `mock.requests.of(id)` gives that operation's path
 * parameters, query names, request body, and answers narrowed by status; the union of all
 * entries narrows by `operationId`; the fault scenarios' options. Checked by `npm run lint`
 * (tsc); nothing here runs.
 */
import type { components } from '@ocs/sdk/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { FaultKind, MockServer, OcsMock, OcsMockRequest } from '../src/node/index.ts';

declare const mock: OcsMock;
type Schemas = components['schemas'];

describe('mock.requests', () => {
  it('types an operation’s entries from the document', () => {
    const [create] = mock.requests.of('createCampaign');
    if (!create) return;
    expectTypeOf(create.operationId).toEqualTypeOf<'createCampaign'>();
    expectTypeOf(create.body?.name).toEqualTypeOf<string | undefined>();
    expectTypeOf(create.params).toEqualTypeOf<Record<string, never>>();
    expectTypeOf(create.fault).toEqualTypeOf<FaultKind | null>();
    const response = create.response;
    if (response?.status === 201) expectTypeOf(response.body.campaign_id).toEqualTypeOf<string | null>();
    if (response?.status === 400) {
      expectTypeOf(response.body.error).toExtend<Schemas['ErrorBody']['error']>();
      // @ts-expect-error not a code of createCampaign's 400
      const code: typeof response.body.error = 'CAMPAIGN_NOT_FOUND';
      void code;
    }
    // @ts-expect-error createCampaign documents no 404
    if (response?.status === 404) return;

    const get = mock.requests.last('getCampaign');
    expectTypeOf(get?.params).toEqualTypeOf<{ campaign_id: string } | undefined>();
    if (get?.response?.status === 200) expectTypeOf(get.response.body.campaign).toEqualTypeOf<Schemas['Campaign']>();
    // A GET has no body.
    expectTypeOf(get?.body).toEqualTypeOf<undefined>();

    const [list] = mock.requests.of('listLeads');
    expectTypeOf(list?.query.limit).toEqualTypeOf<string | undefined>();
    // @ts-expect-error not a query parameter of listLeads
    void list?.query.is_active;

    // @ts-expect-error not an operationId
    mock.requests.of('launchRocket');
  });

  it('narrows any entry by operationId', () => {
    const entry = mock.requests.last() as OcsMockRequest;
    if (entry.operationId === 'updateLead') expectTypeOf(entry.params).toEqualTypeOf<{ lead_id: string }>();
    if (entry.operationId === null) expectTypeOf(entry.body).toEqualTypeOf<unknown>();
    expectTypeOf(mock.requests.dropped).toEqualTypeOf<number>();
  });

  it('is the same on the standalone mock', () => {
    const server = {} as MockServer;
    expectTypeOf(server.requests).toEqualTypeOf<OcsMock['requests']>();
  });
});

describe('fault scenarios', () => {
  it('takes operations by id, and chaos kinds by name', () => {
    mock.scenarios.networkError({ operations: ['listLeads'], times: 1 });
    mock.scenarios.hang();
    mock.scenarios.truncate({ after: 10 });
    mock.scenarios.chaos({ rate: 0.2, seed: 7, kinds: ['networkError', 'hang'] });
    // @ts-expect-error not an operationId
    mock.scenarios.networkError({ operations: ['launchRocket'] });
    // @ts-expect-error not a kind of fault
    mock.scenarios.chaos({ rate: 0.2, seed: 7, kinds: ['explode'] });
    // @ts-expect-error chaos needs a seed
    mock.scenarios.chaos({ rate: 0.2 });
  });
});
