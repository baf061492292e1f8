/**
 * Types of the client: named operations' params, options and results, error codes, and
 * the paginators. Checked by `npm run lint` (tsc); nothing here runs.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createCampaign,
  createLead,
  importLeads,
  createOcs,
  getCampaign,
  listLeads,
  OcsConflictError,
  paginate,
  resultMeta,
  updateSequenceStep,
  verifyAuth,
  type components,
  type ErrorCode,
  type ErrorCodeOf,
  type ErrorDetails,
  type OcsApiError,
  type OcsClient,
  type OcsNotFoundError,
  type OcsRateLimitError,
  type OperationId,
  type Page,
  type RateLimit,
  type ResultMeta,
} from '../src/index.ts';
import type { WithMeta } from '../src/types.ts';

type Schemas = components['schemas'];
declare const client: OcsClient;

describe('named operations', () => {
  it('take one flat params object: path, query and body keys', () => {
    expectTypeOf(getCampaign).parameter(1).toEqualTypeOf<{ campaign_id: string }>();
    expectTypeOf(updateSequenceStep).parameter(1).toHaveProperty('step_id').toEqualTypeOf<number>();
    expectTypeOf(updateSequenceStep).parameter(1).toHaveProperty('updates');
    // `description` has a default: optional to send, though the component type requires it.
    type CreateParams = Parameters<typeof createCampaign>[1];
    expectTypeOf<{ name: string }>().toExtend<CreateParams>();
    expectTypeOf<CreateParams['description']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<CreateParams['sequence']>().toEqualTypeOf<Schemas['CampaignInput']['sequence']>();
    expectTypeOf<CreateParams>().toExtend<Schemas['CampaignInput'] | { name: string }>();
    expectTypeOf(listLeads).parameter(1).toEqualTypeOf<
      | {
          limit?: number;
          offset?: number;
          page?: number;
          campaign_id?: string;
          email?: string;
        }
      | undefined
    >();
  });

  it('make params optional only when nothing in them is required', () => {
    expectTypeOf(verifyAuth).toBeCallableWith(client);
    expectTypeOf(listLeads).toBeCallableWith(client);
    // @ts-expect-error campaign_id is required
    void getCampaign(client);
    // @ts-expect-error unknown keys are refused
    void getCampaign(client, { campaign_id: 'x', campaignId: 'x' });
    // @ts-expect-error step_id is a number
    void updateSequenceStep(client, { campaign_id: 'x', step_id: '3', updates: {} });
  });

  it('take headers through options: idempotencyKey only where the document declares it', () => {
    expectTypeOf(createCampaign).toBeCallableWith(client, { name: 'A' }, { idempotencyKey: 'k', requestId: 'r' });
    expectTypeOf(getCampaign).toBeCallableWith(
      client,
      { campaign_id: 'x' },
      { requestId: 'r', timeoutMs: 1, maxRetries: 0 },
    );
    // @ts-expect-error getCampaign sends no Idempotency-Key
    void getCampaign(client, { campaign_id: 'x' }, { idempotencyKey: 'k' });
  });

  it('resolve to the 2xx body with the request ID, rate limit, status and headers', async () => {
    const campaign = await getCampaign(client, { campaign_id: 'x' });
    expectTypeOf(campaign.campaign).toEqualTypeOf<Schemas['Campaign']>();
    expectTypeOf(campaign.requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(campaign.rateLimit).toEqualTypeOf<RateLimit>();
    expectTypeOf(campaign.status).toEqualTypeOf<number>();
    expectTypeOf(campaign.headers).toEqualTypeOf<Headers>();
    expectTypeOf(campaign).not.toHaveProperty('idempotencyKey');
    const created = await createCampaign(client, { name: 'A' });
    expectTypeOf(created.idempotencyKey).toEqualTypeOf<string>();
    expectTypeOf(created.campaign_id).toEqualTypeOf<string | null>();
    const lead = await createLead(client, { email: 'a@b.c' });
    // 200 (existing lead) and 201 (created) bodies.
    expectTypeOf(lead.created).toEqualTypeOf<boolean>();
    expectTypeOf(lead.idempotencyKey).toEqualTypeOf<string>();
    // The batch form: its own function, typed as the 207 answer.
    const imported = await importLeads(client, [{ email: 'a@b.c' }, { linkedin_profile: 'https://x' }], {
      idempotencyKey: 'k',
    });
    expectTypeOf(imported.created).toEqualTypeOf<number>();
    expectTypeOf(imported.idempotencyKey).toEqualTypeOf<string>();
    expectTypeOf(imported.results).items.toHaveProperty('index').toEqualTypeOf<number>();
    // A created or existing lead is named by its ID, not by its view.
    const [first] = imported.results;
    if (first && first.status !== 400) {
      expectTypeOf(first.lead_id).toEqualTypeOf<string>();
      expectTypeOf(first.sequence_lead_id).toEqualTypeOf<string | null>();
      // @ts-expect-error the batch's results carry no lead view
      void first.lead;
    }
    // @ts-expect-error every lead is a LeadInput
    await importLeads(client, [{ first_name: 1 }]);
  });

  it("give a body's own field precedence over the result's getter of the same name; resultMeta has them all", async () => {
    // No operation of the document answers such a field today: the rule, on a body that does.
    type Body = { success: boolean; status: 'queued' | 'sent'; headers: Record<string, string> };
    type Result = WithMeta<Body, ResultMeta & { readonly idempotencyKey: string }>;
    expectTypeOf<Result['status']>().toEqualTypeOf<'queued' | 'sent'>();
    expectTypeOf<Result['headers']>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<Result['requestId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Result['idempotencyKey']>().toEqualTypeOf<string>();
    // Each member of a union on its own.
    type Either = WithMeta<Body | { success: boolean }, ResultMeta>;
    expectTypeOf<Extract<Either, { headers: unknown }>['headers']>().toEqualTypeOf<Record<string, string> | Headers>();
    // The usual case, no name shared, is the plain intersection, as it was.
    expectTypeOf<WithMeta<{ a: 1 }, ResultMeta>>().toEqualTypeOf<{ a: 1 } & ResultMeta>();
    const campaign = await getCampaign(client, { campaign_id: 'x' });
    const meta = resultMeta(campaign);
    expectTypeOf(meta.status).toEqualTypeOf<number>();
    expectTypeOf(meta.headers).toEqualTypeOf<Headers>();
    expectTypeOf(meta.requestId).toEqualTypeOf<string | undefined>();
    expectTypeOf(meta.idempotencyKey).toEqualTypeOf<string | undefined>();
    expectTypeOf(meta.rateLimit).toEqualTypeOf<RateLimit>();
  });

  it('keep the path API of openapi-fetch', async () => {
    const { data, error } = await client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id: 'x' } } });
    expectTypeOf(data?.campaign.name).toEqualTypeOf<string | undefined>();
    expectTypeOf(error).not.toBeAny();
    // @ts-expect-error the path is typed
    void client.GET('/campaign/{campaign_id}');
  });
});

describe('errors', () => {
  it('type code as the union of the document', () => {
    expectTypeOf<OcsApiError['code']>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<ErrorCode>().toEqualTypeOf<Schemas['ErrorCode']>();
    expectTypeOf<'CAMPAIGN_NOT_FOUND'>().toExtend<ErrorCode>();
    expectTypeOf<'NO_SUCH_CODE'>().not.toExtend<ErrorCode>();
    expectTypeOf<OcsApiError['details']>().toEqualTypeOf<ErrorDetails | undefined>();
    expectTypeOf<NonNullable<OcsApiError['details']>['conflicts']>().toEqualTypeOf<
      Schemas['AccountConflict'][] | undefined
    >();
    expectTypeOf<OcsRateLimitError['retryAfter']>().toEqualTypeOf<number | undefined>();
  });

  it('narrow code by class to the codes answered with that status', () => {
    expectTypeOf<OcsRateLimitError['code']>().toEqualTypeOf<'RATE_LIMITED'>();
    expectTypeOf<'CAMPAIGN_NOT_FOUND' | 'LEAD_NOT_FOUND' | 'NOT_FOUND'>().toExtend<OcsNotFoundError['code']>();
    expectTypeOf<'RATE_LIMITED'>().not.toExtend<OcsNotFoundError['code']>();
    expectTypeOf<'IDEMPOTENCY_IN_PROGRESS' | 'ACCOUNT_IN_USE'>().toExtend<OcsConflictError['code']>();
  });

  it('narrow by instanceof in a catch', () => {
    const error: unknown = undefined;
    if (error instanceof OcsConflictError && error.code === 'ACCOUNT_IN_USE') {
      expectTypeOf(error.details?.conflicts).toEqualTypeOf<Schemas['AccountConflict'][] | undefined>();
    }
  });

  it('list the codes an operation documents with ErrorCodeOf', () => {
    expectTypeOf<ErrorCodeOf<'createCampaign'>>().toEqualTypeOf<
      | 'VALIDATION_ERROR'
      | 'SEQUENCE_VALIDATION_FAILED'
      | 'UNAUTHORIZED'
      | 'API_KEY_EXPIRED'
      | 'INSUFFICIENT_SCOPE'
      | 'ORGANIZATION_DEACTIVATED'
      | 'IDEMPOTENCY_KEY_REUSED'
      | 'IDEMPOTENCY_IN_PROGRESS'
      | 'PAYLOAD_TOO_LARGE'
      | 'UNSUPPORTED_MEDIA_TYPE'
      | 'REQUEST_HEADERS_TOO_LARGE'
      | 'RATE_LIMITED'
      | 'INTERNAL_ERROR'
      | 'ORG_HAS_NO_MEMBERS'
      | 'UPSTREAM_TIMEOUT'
      | 'AUTH_UNAVAILABLE'
    >();
    expectTypeOf<'CAMPAIGN_NOT_FOUND'>().toExtend<ErrorCodeOf<'getCampaign'>>();
    expectTypeOf<'CAMPAIGN_NOT_FOUND'>().not.toExtend<ErrorCodeOf<'createCampaign'>>();
    expectTypeOf<ErrorCodeOf<OperationId>>().toExtend<ErrorCode>();
  });
});

describe('pagination', () => {
  it('iterates the items of the list, typed', () => {
    const leads = paginate(client, listLeads, { campaign_id: 'x' }, { pageSize: 100, maxItems: 10 });
    expectTypeOf(leads).toExtend<AsyncIterable<Schemas['Lead']>>();
    expectTypeOf(leads.pages()).toExtend<AsyncIterable<Page<Schemas['Lead']>>>();
    expectTypeOf(leads.toArray).parameter(0).toEqualTypeOf<{ limit: number }>();
    // @ts-expect-error limit is paging's business: pageSize
    void paginate(client, listLeads, { limit: 10 });
    // @ts-expect-error getCampaign is not a list
    void paginate(client, getCampaign, { campaign_id: 'x' });
  });

  it('is on createOcs too, one per list operation', () => {
    const ocs = createOcs(client);
    expectTypeOf(ocs.paginate.listDeals().toArray({ limit: 5 })).resolves.toEqualTypeOf<Schemas['Deal'][]>();
    expectTypeOf(ocs.paginate).not.toHaveProperty('getCampaign');
    expectTypeOf(ocs.getCampaign).parameters.toEqualTypeOf<
      Parameters<typeof getCampaign> extends [unknown, ...infer Rest] ? Rest : never
    >();
  });
});
