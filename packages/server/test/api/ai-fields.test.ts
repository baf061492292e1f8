/** `GET`/`POST /campaigns/{campaign_id}/ai-fields` and `PATCH .../ai-fields/{field_id}`. */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, tickingClock } from '../support/campaign-setup.ts';

interface AiField {
  id: string;
  field_name: string;
  ai_instructions: string;
  created_at: string | null;
  updated_at: string | null;
  data_sources: string[] | null;
  fallback_value: string | null;
  field_description: string | null;
  is_active: boolean;
  [extra: string]: unknown;
}
interface Answer {
  message: string;
  ai_field: AiField;
  error?: string;
  details?: { errors: Array<{ field: string; type: string; message: string }> };
}

describeBackends('AI fields', (store) => {
  let api: TestApi;
  let campaignId: string;
  const setup = async (clock = tickingClock()) => {
    api = await createTestApi(store(), { clock });
    campaignId = await createCampaign(api);
  };
  const create = (body: unknown, id = campaignId) =>
    api.call<Answer>('POST', `/v1/campaigns/${id}/ai-fields`, { body });
  const update = (fieldId: string, body: unknown, id = campaignId) =>
    api.call<Answer>('PATCH', `/v1/campaigns/${id}/ai-fields/${fieldId}`, { body });
  const list = async (id = campaignId) =>
    (await api.call<{ campaign_id: string; ai_fields: AiField[] }>('GET', `/v1/campaigns/${id}/ai-fields`)).body;

  it('creates a field with defaults, keeping extra properties and ignoring read-only ones', async () => {
    await setup();
    const answer = await create({
      field_name: 'icebreaker',
      ai_instructions: 'One friendly line.',
      model_hint: 'short',
      weights: { recency: 2 },
      id: 'mine',
      created_at: '2000-01-01T00:00:00+00:00',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('AI field created');
    const field = answer.body.ai_field;
    expect(field).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      field_name: 'icebreaker',
      ai_instructions: 'One friendly line.',
      created_at: expect.stringMatching(/\+00:00$/),
      updated_at: field.created_at,
      data_sources: null,
      fallback_value: null,
      field_description: null,
      is_active: true,
      model_hint: 'short',
      weights: { recency: 2 },
    });
    expect(field.id).not.toBe('mine');
    expect(await list()).toEqual({ success: true, campaign_id: campaignId, ai_fields: [field] });
  });

  it('lists active and inactive fields oldest first, ties by id', async () => {
    const fixed = { now: () => new Date('2026-11-06T10:00:00.000Z') };
    await setup(fixed);
    const names = ['zeta', 'alpha', 'mid'];
    const created: AiField[] = [];
    for (const name of names) {
      created.push((await create({ field_name: name, ai_instructions: 'x', is_active: name !== 'mid' })).body.ai_field);
    }
    const listed = (await list()).ai_fields;
    expect(listed.map((f) => f.id)).toEqual(created.map((f) => f.id).sort());
    expect(listed.find((f) => f.field_name === 'mid')?.is_active).toBe(false);
  });

  it('refuses a field_name already used in the campaign (exactly compared) with VALIDATION_ERROR duplicate', async () => {
    await setup();
    await create({ field_name: 'icebreaker', ai_instructions: 'x' });
    const duplicate = await create({ field_name: 'icebreaker', ai_instructions: 'y' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.error).toBe('VALIDATION_ERROR');
    expect(duplicate.body.details?.errors).toEqual([
      {
        field: 'body.field_name',
        type: 'duplicate',
        message: "'icebreaker' is already used by an AI field of this campaign",
      },
    ]);
    expect((await create({ field_name: 'Icebreaker', ai_instructions: 'y' })).status).toBe(201);
    const elsewhere = await createCampaign(api);
    expect((await create({ field_name: 'icebreaker', ai_instructions: 'y' }, elsewhere)).status).toBe(201);
    expect((await list()).ai_fields).toHaveLength(2);
  });

  it('creates one field when the same name is sent concurrently', async () => {
    await setup();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => create({ field_name: 'icebreaker', ai_instructions: 'x' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect((await list()).ai_fields).toHaveLength(1);
  });

  it('validates the body', async () => {
    await setup();
    for (const body of [
      { field_name: '1st', ai_instructions: 'x' },
      { field_name: 'ok' },
      { field_name: 'ok', ai_instructions: '' },
      { field_name: 'ok', ai_instructions: 'x', fallback_value: 'x'.repeat(2001) },
      { field_name: 'ok', ai_instructions: 'x', data_sources: Array.from({ length: 21 }, () => 's') },
    ]) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it('updates the fields sent, clears nullable ones with null and merges extra properties', async () => {
    await setup();
    const created = (
      await create({
        field_name: 'icebreaker',
        ai_instructions: 'x',
        fallback_value: 'Hi',
        model_hint: 'short',
        keep: 1,
      })
    ).body.ai_field;
    const answer = await update(created.id, {
      data_sources: ['website'],
      fallback_value: null,
      is_active: false,
      model_hint: 'long',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('AI field updated');
    expect(answer.body.ai_field).toEqual({
      ...created,
      data_sources: ['website'],
      fallback_value: null,
      is_active: false,
      model_hint: 'long',
      updated_at: expect.stringMatching(/\+00:00$/),
    });
    expect((answer.body.ai_field.updated_at ?? '') > (created.updated_at ?? '')).toBe(true);
    expect((await list()).ai_fields).toEqual([answer.body.ai_field]);
  });

  it('refuses renaming onto another field’s name, allows keeping its own, and refuses an empty body', async () => {
    await setup();
    const first = (await create({ field_name: 'first', ai_instructions: 'x' })).body.ai_field;
    await create({ field_name: 'second', ai_instructions: 'x' });
    const clash = await update(first.id, { field_name: 'second' });
    expect(clash.status).toBe(400);
    expect(clash.body.details?.errors[0]).toMatchObject({ field: 'body.field_name', type: 'duplicate' });
    expect((await update(first.id, { field_name: 'first', ai_instructions: 'y' })).status).toBe(200);
    expect((await update(first.id, { field_name: 'renamed' })).body.ai_field.field_name).toBe('renamed');
    const empty = await update(first.id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('VALIDATION_ERROR');
  });

  it('answers NOT_FOUND for a field of another campaign or a malformed id, CAMPAIGN_NOT_FOUND across organizations', async () => {
    await setup();
    const field = (await create({ field_name: 'icebreaker', ai_instructions: 'x' })).body.ai_field;
    const elsewhere = await createCampaign(api);
    const wrongCampaign = await update(field.id, { is_active: false }, elsewhere);
    expect(wrongCampaign.status).toBe(404);
    expect(wrongCampaign.body.error).toBe('NOT_FOUND');
    expect(wrongCampaign.body.message).toContain(field.id);
    expect((await update('not-a-uuid', { is_active: false })).body.error).toBe('NOT_FOUND');
    const other = await createTestApi(store());
    for (const [method, path, body] of [
      ['GET', `/v1/campaigns/${campaignId}/ai-fields`, undefined],
      ['POST', `/v1/campaigns/${campaignId}/ai-fields`, { field_name: 'x', ai_instructions: 'x' }],
      ['PATCH', `/v1/campaigns/${campaignId}/ai-fields/${field.id}`, { is_active: false }],
    ] as const) {
      const answer = await other.call<Answer>(method, path, { body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error).toBe('CAMPAIGN_NOT_FOUND');
    }
    expect((await list()).ai_fields).toEqual([field]);
  });
});
