/** Create, list and read campaigns; the sequence rules on create; organization isolation. */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

const emailStep = (id: number, delay = 0) => ({
  id,
  type: 'email',
  subject: 'Hi {first_name}',
  content: 'About {company}',
  delay,
});

describeBackends('campaigns', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store());
  };

  it('creates a draft campaign and reads it back', async () => {
    await setup();
    const created = await api.call<{ campaign_id: string; campaign: Record<string, unknown>; message: string }>(
      'POST',
      '/v1/campaigns',
      { body: { name: 'Fintech CFOs', sequence: { variation_a: [emailStep(1), emailStep(2, 3)] } } },
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Campaign created in draft state');
    expect(created.body.campaign).toMatchObject({ name: 'Fintech CFOs', is_active: false, description: '' });
    const read = await api.call<{ campaign: Record<string, unknown> }>(
      'GET',
      `/v1/campaigns/${created.body.campaign_id}`,
    );
    expect(read.status).toBe(200);
    expect(read.body.campaign).toEqual(created.body.campaign);
  });

  it('gives a campaign without a sequence an empty list', async () => {
    await setup();
    const created = await api.call<{ campaign: { sequence: unknown } }>('POST', '/v1/campaigns', {
      body: { name: 'No sequence yet' },
    });
    expect(created.body.campaign.sequence).toEqual([]);
  });

  it('lists campaigns newest first and pages with offset', async () => {
    await setup();
    for (const name of ['first', 'second', 'third']) {
      await api.call('POST', '/v1/campaigns', { body: { name } });
    }
    const page1 = await api.call<{ campaigns: Array<{ name: string }>; has_more: boolean; total: number }>(
      'GET',
      '/v1/campaigns?limit=2',
    );
    expect(page1.body.campaigns.map((c) => c.name)).toEqual(['third', 'second']);
    expect(page1.body).toMatchObject({ total: 3, has_more: true, count: 2, limit: 2, offset: 0 });
    const page2 = await api.call<{ campaigns: Array<{ name: string }>; has_more: boolean }>(
      'GET',
      '/v1/campaigns?limit=2&offset=2',
    );
    expect(page2.body.campaigns.map((c) => c.name)).toEqual(['first']);
    expect(page2.body.has_more).toBe(false);
  });

  it('refuses out-of-range limits and negative offsets with VALIDATION_ERROR', async () => {
    await setup();
    for (const query of ['limit=0', 'limit=501', 'offset=-1', 'limit=abc', 'offset=99999999999999999999']) {
      const answer = await api.call<{ error: string; details: { errors: Array<{ field: string }> } }>(
        'GET',
        `/v1/campaigns?${query}`,
      );
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors[0]?.field).toMatch(/^query\.(limit|offset)$/);
    }
  });

  it('lists every broken sequence rule at once', async () => {
    await setup();
    const answer = await api.call<{ error: string; message: string; details: { errors: Array<{ type: string }> } }>(
      'POST',
      '/v1/campaigns',
      {
        body: {
          name: 'Broken',
          sequence: {
            variation_a: [
              { id: 1, type: 'email', subject: '', content: 'x', delay: 120 },
              { id: 2, type: 'linkedin_connection' },
              { id: 2, type: 'linkedin_message', message: 'hi' },
            ],
          },
        },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('SEQUENCE_VALIDATION_FAILED');
    expect(answer.body.details.errors.map((e) => e.type).sort()).toEqual([
      'connection_needs_conditional',
      'delay_out_of_range',
      'duplicate_step_id',
      'email_needs_subject_and_content',
      'message_outside_yes_branch',
    ]);
    expect(answer.body.message).toContain('5 rules');
  });

  it('validates the body against the document', async () => {
    await setup();
    const answer = await api.call<{ error: string; details: { errors: Array<{ field: string; type: string }> } }>(
      'POST',
      '/v1/campaigns',
      { body: { description: 'x'.repeat(2001), colour: 'red' } },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.name', type: 'required' }),
        expect.objectContaining({ field: 'body.description', type: 'max_length' }),
        expect.objectContaining({ field: 'body.colour', type: 'additional_properties' }),
      ]),
    );
  });

  it('reports the failing field inside a nullable sequence, not the union', async () => {
    await setup();
    const answer = await api.call<{ error: string; details: { errors: Array<{ field: string; type: string }> } }>(
      'POST',
      '/v1/campaigns',
      { body: { name: 'x', sequence: { variation_a: [{ id: 'one', type: 'email', subject: 's', content: 'c' }] } } },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_ERROR');
    expect(answer.body.details.errors).toEqual([
      expect.objectContaining({ field: 'body.sequence.variation_a[0].id', type: 'type' }),
    ]);
  });

  it('answers 404 NOT_FOUND for a non-UUID id and CAMPAIGN_NOT_FOUND for an unknown one', async () => {
    await setup();
    const malformed = await api.call<{ error: string }>('GET', '/v1/campaigns/not-a-uuid');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('NOT_FOUND');
    const unknown = await api.call<{ error: string }>('GET', `/v1/campaigns/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('CAMPAIGN_NOT_FOUND');
  });

  it('hides another organization’s campaign', async () => {
    await setup();
    const created = await api.call<{ campaign_id: string }>('POST', '/v1/campaigns', { body: { name: 'Mine' } });
    const other = await createTestApi(store());
    const answer = await other.call<{ error: string }>('GET', `/v1/campaigns/${created.body.campaign_id}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('CAMPAIGN_NOT_FOUND');
    const list = await other.call<{ total: number }>('GET', '/v1/campaigns');
    expect(list.body.total).toBe(0);
  });
});
