/**
 * Types of the typed overrides and scenarios: paths, methods, params, query names, request
 * and response bodies by status, error statuses and codes by operation. Checked by
 * `npm run lint` (tsc); nothing here runs.
 */
import type { components } from '@ocs/sdk/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { DeepReadonly } from '../src/core/frozen.ts';
import type { OcsMock } from '../src/node/index.ts';

declare const mock: OcsMock;
declare function first<T>(list: readonly T[]): T;
type Schemas = components['schemas'];

describe('mock.http', () => {
  it('types path params, query names and the request body from the document', () => {
    mock.http.delete('/campaigns/{campaign_id}/webhooks/{webhook_id}', ({ params }) => {
      expectTypeOf(params).toEqualTypeOf<{ campaign_id: string; webhook_id: string }>();
      return undefined;
    });
    mock.http.get('/leads', ({ query }) => {
      query.get('campaign_id');
      query.get('limit');
      // @ts-expect-error not a query parameter of GET /leads
      query.get('is_active');
      return undefined;
    });
    mock.http.post('/campaigns', async ({ request }) => {
      const body = await request.json();
      expectTypeOf(body.name).toEqualTypeOf<string>();
      expectTypeOf(body.sequence).toEqualTypeOf<Schemas['Sequence'] | null | undefined>();
      return undefined;
    });
  });

  it('types the response body by the documented status', () => {
    mock.http.get('/campaigns/{campaign_id}', ({ response }) => {
      // Read-only accepted (a body built from mock.data is), mutable too.
      expectTypeOf(response(200).json)
        .parameter(0)
        .toEqualTypeOf<DeepReadonly<{ success: boolean; campaign: Schemas['Campaign'] }>>();
      expectTypeOf<{ success: boolean; campaign: Schemas['Campaign'] }>().toExtend<
        Parameters<ReturnType<typeof response<200>>['json']>[0]
      >();
      response(200).json({ success: true, campaign: { ...first(mock.data.campaigns), name: 'Renamed' } });
      // @ts-expect-error getCampaign documents no 409
      response(409);
      // @ts-expect-error the 200 body needs `campaign`
      return response(200).json({ success: true });
    });
    mock.http.get('/campaigns/{campaign_id}', ({ response }) =>
      response(404).json({ success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'Gone.', request_id: 'r' }),
    );
    mock.http.get('/campaigns/{campaign_id}', ({ response }) =>
      // @ts-expect-error not a code of getCampaign's 404
      response(404).json({ success: false, error: 'IDEMPOTENCY_KEY_REUSED', message: 'x', request_id: 'r' }),
    );
    mock.http.get('/campaigns/{campaign_id}', ({ response }) =>
      response(429).json(
        { success: false, error: 'RATE_LIMITED', message: 'Slow down.', request_id: 'r' },
        { headers: { 'Retry-After': 3, 'RateLimit-Remaining': 0 } },
      ),
    );
  });

  it('types the documented response headers', () => {
    mock.http.get('/campaigns/{campaign_id}', ({ response }) =>
      response(404).json(
        { success: false, error: 'NOT_FOUND', message: 'x', request_id: 'r' },
        // @ts-expect-error X-Request-ID is a string in the document
        { headers: { 'X-Request-ID': 5 } },
      ),
    );
  });

  it('refuses paths the document lacks and methods a path lacks', () => {
    // @ts-expect-error no such path
    mock.http.get('/campaign/{campaign_id}', () => undefined);
    // @ts-expect-error /campaigns/{campaign_id} has no DELETE
    mock.http.delete('/campaigns/{campaign_id}', () => undefined);
  });
});

describe('mock.scenarios', () => {
  it('types statuses and codes by operation', () => {
    mock.scenarios.fail('createCampaign', { status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    mock.scenarios.fail('listLeads', { status: 429, code: 'RATE_LIMITED', times: 3, retryAfter: 0 });
    // @ts-expect-error createCampaign documents no 404
    mock.scenarios.fail('createCampaign', { status: 404, code: 'NOT_FOUND' });
    // @ts-expect-error CAMPAIGN_NOT_FOUND is not a 409 code of createCampaign
    mock.scenarios.fail('createCampaign', { status: 409, code: 'CAMPAIGN_NOT_FOUND' });
    // @ts-expect-error 200 is not an error status
    mock.scenarios.fail('getCampaign', { status: 200, code: 'CAMPAIGN_NOT_FOUND' });
    // @ts-expect-error RATE_LIMITED is a code of getCampaign, but at 429, not 404
    mock.scenarios.fail('getCampaign', { status: 404, code: 'RATE_LIMITED' });
    // @ts-expect-error RATE_LIMITED is a 429 code, not a 400 one
    mock.scenarios.fail('createCampaign', { status: 400, code: 'RATE_LIMITED' });
    mock.scenarios.latency(50, { operations: ['listLeads', 'getCampaign'] });
    // @ts-expect-error not an operationId
    mock.scenarios.latency(50, { operations: ['listLead'] });
  });

  it('gives the seeded data the API shapes', () => {
    expectTypeOf(mock.data.campaigns).toEqualTypeOf<ReadonlyArray<DeepReadonly<Schemas['Campaign']>>>();
    expectTypeOf(mock.data.leads[0]?.enrolments[0]?.sequence_lead_id).toEqualTypeOf<string | undefined>();
    expectTypeOf(mock.apiKey).toBeString();
  });
});
