/**
 * CRM deals: create (stage, probability and close date rules), get, list with filters, and
 * update (stage moves set and clear actual_close_date); IDs of other organizations in bodies.
 */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { type CrmFixtures, crmFixtures } from '../support/crm-fixtures.ts';
import { type ErrorAnswer, steppingClock } from '../support/webhook-api.ts';

interface DealBody {
  id: string;
  name: string;
  lead_id: string | null;
  lead: { id: string; first_name: string | null; email: string | null } | null;
  pipeline_id: string | null;
  stage_id: string | null;
  owner_id: string | null;
  value: number | null;
  probability: number | null;
  expected_close_date: string | null;
  actual_close_date: string | null;
  notes: string | null;
  custom_fields: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}
type DealAnswer = { deal: DealBody; message: string } & ErrorAnswer;
interface Stage {
  id: string;
  name: string;
  pipeline_id: string;
}

describeBackends('crm: deals', (store) => {
  let api: TestApi;
  let f: CrmFixtures;
  /** The seeded default pipeline's stages, by name. */
  let stage: Record<string, Stage>;
  let defaultPipeline: string;
  const setup = async () => {
    api = await createTestApi(store(), { clock: steppingClock() });
    f = await crmFixtures(store(), api.organizationId, api.ownerId);
    const list = await api.call<{ pipelines: Array<{ id: string }> }>('GET', '/v1/crm/pipelines');
    defaultPipeline = list.body.pipelines[0]?.id ?? '';
    const detail = await api.call<{ pipeline: { stages: Stage[] } }>('GET', `/v1/crm/pipelines/${defaultPipeline}`);
    stage = Object.fromEntries(detail.body.pipeline.stages.map((s) => [s.name, s]));
  };
  const create = (body: unknown) => api.call<DealAnswer>('POST', '/v1/crm/deals', { body });
  const update = (id: string, body: unknown) => api.call<DealAnswer>('PATCH', `/v1/crm/deals/${id}`, { body });

  it('creates a deal in the given stage with the stage’s probability and the lead’s summary', async () => {
    await setup();
    const lead = await f.lead({ email: 'maya.patel@acmerobotics.com' });
    const created = await create({
      name: 'Acme Robotics pilot',
      lead_id: lead.id,
      stage_id: stage['Meeting booked']?.id,
      owner_id: api.ownerId,
      value: 24000,
      expected_close_date: '2026-12-15T02:00:00+02:00',
      notes: 'Intro call booked for 10 November; pilot for two warehouses.',
      custom_fields: { source_campaign: 'Q4 Founders Outreach', sites: 2 },
      metadata: { sequence_lead_id: 'c4a7e2d9-5f3b-4c8a-a6e1-9d2b7f4c1e83' },
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Deal created');
    expect(created.body.deal).toMatchObject({
      name: 'Acme Robotics pilot',
      lead_id: lead.id,
      lead: {
        id: lead.id,
        first_name: 'Maya',
        last_name: 'Patel',
        email: 'maya.patel@acmerobotics.com',
        company: 'Acme Robotics',
      },
      pipeline_id: defaultPipeline,
      stage_id: stage['Meeting booked']?.id,
      owner_id: api.ownerId,
      value: 24000,
      probability: 40,
      expected_close_date: '2026-12-15T00:00:00.000+00:00',
      actual_close_date: null,
      custom_fields: { source_campaign: 'Q4 Founders Outreach', sites: 2 },
    });
    const read = await api.call<DealAnswer>('GET', `/v1/crm/deals/${created.body.deal.id}`);
    expect(read.body.deal).toEqual(created.body.deal);
  });

  it('starts a deal without stage in the default pipeline’s first stage; probability given wins', async () => {
    await setup();
    const bare = await create({ name: 'Brightlane expansion' });
    expect(bare.body.deal).toMatchObject({
      stage_id: stage.Qualified?.id,
      pipeline_id: defaultPipeline,
      probability: 20,
      lead: null,
      lead_id: null,
      owner_id: null,
      actual_close_date: null,
    });
    const nullStage = await create({ name: 'Null stage', stage_id: null, probability: 55 });
    expect(nullStage.body.deal).toMatchObject({ stage_id: stage.Qualified?.id, probability: 55 });
    const noProbability = await create({ name: 'No probability', probability: null });
    expect(noProbability.body.deal.probability).toBeNull();
  });

  it('closes a deal created in a won or lost stage', async () => {
    await setup();
    for (const name of ['Closed won', 'Closed lost']) {
      const created = await create({ name: `Deal ${name}`, stage_id: stage[name]?.id });
      expect(created.body.deal.actual_close_date).toBe(created.body.deal.created_at);
    }
  });

  it('answers INVALID_STAGE and VALIDATION_ERROR not_found for IDs outside the organization', async () => {
    await setup();
    const other = await crmFixtures(store());
    const { stages: foreignStages } = await other.pipeline();
    const foreignLead = await other.lead();
    const deleted = await f.lead();
    await store().leads.erase(api.organizationId, deleted.id, new Date().toISOString());
    for (const stageId of [crypto.randomUUID(), foreignStages[0]?.id]) {
      for (const answer of [
        await create({ name: 'x', stage_id: stageId }),
        await update((await create({ name: 'y' })).body.deal.id, { stage_id: stageId, value: 5 }),
      ]) {
        expect([answer.status, answer.body.error]).toEqual([400, 'INVALID_STAGE']);
        expect(answer.body.message).toContain(String(stageId));
      }
    }
    for (const body of [
      { lead_id: crypto.randomUUID() },
      { lead_id: foreignLead.id },
      { lead_id: deleted.id },
      { owner_id: other.ownerId },
      { owner_id: crypto.randomUUID() },
    ]) {
      const answer = await create({ name: 'x', ...body });
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
      expect(answer.body.details?.errors).toEqual([
        expect.objectContaining({ field: `body.${Object.keys(body)[0]}`, type: 'not_found' }),
      ]);
    }
    const both = await create({ name: 'x', lead_id: foreignLead.id, owner_id: other.ownerId });
    expect(both.body.details?.errors?.map((e) => e.field)).toEqual(['body.lead_id', 'body.owner_id']);
    expect(both.body.message).toBe(
      'Request validation failed: body.lead_id is not a lead of this organization; body.owner_id is not a member of this organization.',
    );
    // Nothing was created by a refused request, nor changed by a refused update.
    const list = await api.call<{ deals: DealBody[] }>('GET', '/v1/crm/deals');
    expect(list.body.deals.map((d) => [d.name, d.value])).toEqual([
      ['y', null],
      ['y', null],
    ]);
  });

  it('refuses malformed bodies: probability out of range, unknown fields, actual_close_date', async () => {
    await setup();
    for (const body of [{ name: 'x', probability: 101 }, { name: 'x', colour: 'red' }, { probability: 5 }]) {
      const answer = await create(body);
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const deal = (await create({ name: 'x' })).body.deal;
    for (const body of [{}, { actual_close_date: '2026-11-24T15:30:00+00:00' }, { value: -1 }]) {
      const answer = await update(deal.id, body);
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  it('gets a deal of the organization only; a deleted lead shows as null', async () => {
    await setup();
    const lead = await f.lead();
    const deal = (await create({ name: 'x', lead_id: lead.id })).body.deal;
    await store().leads.erase(api.organizationId, lead.id, new Date().toISOString());
    const read = await api.call<DealAnswer>('GET', `/v1/crm/deals/${deal.id}`);
    expect(read.body.deal).toMatchObject({ lead_id: lead.id, lead: null });
    const other = await createTestApi(store());
    for (const [caller, method, id] of [
      [other, 'GET', deal.id],
      [other, 'PATCH', deal.id],
      [api, 'GET', crypto.randomUUID()],
      [api, 'PATCH', crypto.randomUUID()],
      [api, 'GET', 'not-a-uuid'],
    ] as const) {
      const answer = await caller.call<ErrorAnswer>(method, `/v1/crm/deals/${id}`, {
        body: method === 'PATCH' ? { value: 1 } : undefined,
      });
      expect([answer.status, answer.body.error], `${method} ${id}`).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('lists deals newest first with lead summaries, filtered by stage, owner and lead', async () => {
    await setup();
    const lead = await f.lead();
    const gone = await f.lead();
    await create({ name: 'first', lead_id: lead.id });
    await create({ name: 'second', stage_id: stage.Proposal?.id, owner_id: api.ownerId });
    await create({ name: 'third', lead_id: gone.id, owner_id: api.ownerId });
    await store().leads.erase(api.organizationId, gone.id, new Date().toISOString());
    const names = async (query: string) => {
      const answer = await api.call<{ deals: DealBody[]; total: number }>('GET', `/v1/crm/deals${query}`);
      expect(answer.status, query).toBe(200);
      return answer.body.deals.map((d) => d.name);
    };
    const all = await api.call<{ deals: DealBody[]; limit: number; total: number }>('GET', '/v1/crm/deals');
    expect(all.body).toMatchObject({ limit: 50, total: 3 });
    expect(all.body.deals.map((d) => [d.name, d.lead?.id ?? null])).toEqual([
      ['third', null],
      ['second', null],
      ['first', lead.id],
    ]);
    expect(all.body.deals[0]?.lead_id).toBe(gone.id);
    expect(await names(`?stage_id=${stage.Proposal?.id}`)).toEqual(['second']);
    expect(await names(`?owner_id=${api.ownerId}`)).toEqual(['third', 'second']);
    expect(await names(`?lead_id=${lead.id}`)).toEqual(['first']);
    expect(await names(`?owner_id=${api.ownerId}&stage_id=${stage.Qualified?.id}`)).toEqual(['third']);
    expect(await names('?stage_id=null')).toEqual(['third', 'second', 'first']);
    expect(await names(`?stage_id=${crypto.randomUUID()}`)).toEqual([]);
    expect(await names('?limit=1&offset=1')).toEqual(['second']);
    for (const query of ['?limit=101', '?limit=0', '?stage_id=nope', '?owner_id=1']) {
      const bad = await api.call<ErrorAnswer>('GET', `/v1/crm/deals${query}`);
      expect([bad.status, bad.body.error], query).toEqual([400, 'VALIDATION_ERROR']);
    }
    const other = await createTestApi(store());
    const theirs = await other.call<{ total: number }>('GET', `/v1/crm/deals?owner_id=${api.ownerId}`);
    expect(theirs.body.total).toBe(0);
  });

  it('sets actual_close_date when a deal is won or lost, and clears it when it reopens', async () => {
    await setup();
    const deal = (await create({ name: 'Acme Robotics pilot', stage_id: stage['Meeting booked']?.id })).body.deal;
    const won = await update(deal.id, { stage_id: stage['Closed won']?.id, notes: 'Pilot signed.' });
    expect(won.status).toBe(200);
    expect(won.body.message).toBe('Deal updated');
    expect(won.body.deal).toMatchObject({ probability: 100, notes: 'Pilot signed.' });
    expect(won.body.deal.actual_close_date).toBe(won.body.deal.updated_at);
    const valueOnly = await update(deal.id, { value: 30000 });
    expect(valueOnly.body.deal).toMatchObject({ value: 30000, probability: 100 });
    expect(valueOnly.body.deal.actual_close_date).toBe(won.body.deal.actual_close_date);
    const sameStage = await update(deal.id, { stage_id: stage['Closed won']?.id });
    expect(sameStage.body.deal.actual_close_date).toBe(won.body.deal.actual_close_date);
    const lost = await update(deal.id, { stage_id: stage['Closed lost']?.id, probability: 5 });
    expect(lost.body.deal).toMatchObject({ probability: 5 });
    expect(lost.body.deal.actual_close_date).toBe(lost.body.deal.updated_at);
    expect(lost.body.deal.actual_close_date).not.toBe(won.body.deal.actual_close_date);
    const reopened = await update(deal.id, { stage_id: stage.Proposal?.id });
    expect(reopened.body.deal).toMatchObject({ probability: 60, actual_close_date: null });
    expect((await api.call<DealAnswer>('GET', `/v1/crm/deals/${deal.id}`)).body.deal).toEqual(reopened.body.deal);
  });

  it('moves a deal to another pipeline’s stage, or out of any pipeline', async () => {
    await setup();
    const { pipeline: partnerships, stages } = await f.pipeline();
    const deal = (await create({ name: 'Channel deal', probability: 33 })).body.deal;
    const moved = await update(deal.id, { stage_id: stages[2]?.id });
    expect(moved.body.deal).toMatchObject({ pipeline_id: partnerships.id, stage_id: stages[2]?.id, probability: 100 });
    expect(moved.body.deal.actual_close_date).toBe(moved.body.deal.updated_at);
    const out = await update(deal.id, { stage_id: null });
    expect(out.body.deal).toMatchObject({
      pipeline_id: null,
      stage_id: null,
      probability: 100,
      actual_close_date: null,
    });
    const back = await update(deal.id, { stage_id: stage['Closed lost']?.id });
    expect(back.body.deal).toMatchObject({ pipeline_id: defaultPipeline, probability: 0 });
    expect(back.body.deal.actual_close_date).toBe(back.body.deal.updated_at);
  });

  it('updates plain fields: null clears, omitted keeps; lead and owner are checked', async () => {
    await setup();
    const lead = await f.lead();
    const deal = (
      await create({ name: 'x', lead_id: lead.id, owner_id: api.ownerId, notes: 'n', custom_fields: { a: 1 } })
    ).body.deal;
    const cleared = await update(deal.id, { notes: null, custom_fields: null, lead_id: null, name: 'renamed' });
    expect(cleared.body.deal).toMatchObject({
      name: 'renamed',
      notes: null,
      custom_fields: null,
      lead_id: null,
      lead: null,
      owner_id: api.ownerId,
      stage_id: deal.stage_id,
      probability: deal.probability,
    });
    const relinked = await update(deal.id, { lead_id: lead.id });
    expect(relinked.body.deal.lead?.id).toBe(lead.id);
    const foreign = await update(deal.id, { owner_id: (await crmFixtures(store())).ownerId, name: 'nope' });
    expect(foreign.body.details?.errors).toEqual([
      expect.objectContaining({ field: 'body.owner_id', type: 'not_found' }),
    ]);
    expect((await api.call<DealAnswer>('GET', `/v1/crm/deals/${deal.id}`)).body.deal.name).toBe('renamed');
  });
});
