/**
 * Typed overrides: one operation answered exactly as a test says, with plain MSW handlers
 * at the mock's base URL; everything else still from the mock's application.
 */
import { createCampaign, getCampaign, listCampaigns, listSequenceTemplatesLegacy, OcsNotFoundError } from '@ocs/sdk';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/setup.ts';

const { mock, server, client } = await mockedApi({ seed: 9 });
const [first, second] = mock.data.campaigns;
const campaign_id = first?.id ?? '';

describe('mock.http + mock.use', () => {
  it('answers one operation with a typed body; the others come from the application', async () => {
    mock.use(
      mock.http.get('/campaigns/{campaign_id}', ({ params, response }) =>
        response(200).json({
          success: true,
          campaign: {
            id: params.campaign_id,
            name: 'Exactly this',
            description: '',
            is_active: false,
            created_at: '2026-11-01T00:00:00+00:00',
            updated_at: '2026-11-01T00:00:00+00:00',
          },
        }),
      ),
    );
    const answer = await getCampaign(client(), { campaign_id });
    expect(answer.campaign.name).toBe('Exactly this');
    // What every answer of the API carries is added unless the test sets it.
    expect(answer.requestId).toMatch(/^req_/);
    expect(answer.rateLimit.limit).toBe(100);
    expect((await listCampaigns(client())).total).toBe(3);
    // The caller's own request ID comes back, as the service echoes it.
    const mine = await getCampaign(client(), { campaign_id }, { requestId: 'req_mine_123' });
    expect(mine.requestId).toBe('req_mine_123');
    // `{campaign_id}` does not swallow the fixed segment of another operation.
    expect((await listSequenceTemplatesLegacy(client())).templates.length).toBeGreaterThan(0);
  });

  it('answers errors in the document shape; the SDK types them', async () => {
    mock.use(
      mock.http.get('/campaigns/{campaign_id}', ({ response }) =>
        response(404).json(
          { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'Gone.', request_id: 'req_override' },
          { headers: { 'X-Request-ID': 'req_override' } },
        ),
      ),
    );
    const error = await getCampaign(client(), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsNotFoundError);
    expect(error).toMatchObject({ code: 'CAMPAIGN_NOT_FOUND', requestId: 'req_override' });
  });

  it('reads the typed request and params; undefined lets the application answer', async () => {
    const seen: string[] = [];
    mock.use(
      mock.http.post('/campaigns', async ({ request }) => {
        const body = await request.json();
        seen.push(body.name);
        if (body.name !== 'Intercepted') return undefined;
        return HttpResponse.json(
          { success: false, error: 'VALIDATION_ERROR', message: 'No.', request_id: 'r' },
          { status: 400 },
        );
      }),
    );
    await expect(createCampaign(client(), { name: 'Intercepted' })).rejects.toMatchObject({ status: 400 });
    const created = await createCampaign(client(), { name: 'Passed through' });
    expect(created.campaign?.name).toBe('Passed through');
    expect(seen).toEqual(['Intercepted', 'Passed through']);
  });

  it('reads query parameters by their document names; `once` answers a single time', async () => {
    mock.use(
      mock.http.get(
        '/campaigns',
        ({ query, response }) =>
          response(200).json({
            success: true,
            message: 'Campaigns retrieved',
            count: 0,
            total: 0,
            limit: Number(query.get('limit')),
            offset: 0,
            has_more: false,
            campaigns: [],
          }),
        { once: true },
      ),
    );
    expect((await listCampaigns(client(), { limit: 5 })).limit).toBe(5);
    expect((await listCampaigns(client(), { limit: 5 })).total).toBe(3);
  });

  it('takes plain MSW handlers; scenarios still come first; reset() removes overrides', async () => {
    mock.use(http.get(`${mock.baseUrl}/campaigns/:id`, () => HttpResponse.json({ success: true, campaign: second })));
    expect((await getCampaign(client(), { campaign_id })).campaign.id).toBe(second?.id);

    mock.scenarios.fail('getCampaign', { status: 500, code: 'INTERNAL_ERROR' });
    await expect(getCampaign(client({ maxRetries: 0 }), { campaign_id })).rejects.toMatchObject({ status: 500 });

    mock.reset();
    expect((await getCampaign(client(), { campaign_id })).campaign.id).toBe(campaign_id);
  });

  it('works with the MSW server use() too (cleared by resetHandlers)', async () => {
    server.use(
      mock.http.get('/campaigns/{campaign_id}', ({ response }) =>
        response(200).json({ success: true, campaign: { ...first, name: 'From server.use' } as never }),
      ),
    );
    expect((await getCampaign(client(), { campaign_id })).campaign.name).toBe('From server.use');
  });
});
