/**
 * The store contract for pipelines, stages and deals: the same assertions on memory, PGlite
 * and PostgreSQL (organization scoping, ordering with ties by id, filters, number, JSON and
 * timestamp round trips, the one-default-pipeline guarantee, locked reads in transactions).
 */
import { expect, it } from 'vitest';
import { uniqueConstraints } from '../../src/store/errors.ts';
import { describeBackends } from '../support/backends.ts';
import { crmFixtures, oct } from '../support/crm-fixtures.ts';

const low = '00000000-0000-4000-8000-000000000000';
const high = 'ffffffff-0000-4000-8000-000000000000';

describeBackends('store contract: crm', (store) => {
  it('lists active pipelines oldest first, ties by id, with the total; listAll includes inactive ones', async () => {
    const f = await crmFixtures(store());
    const { pipeline: late } = await f.pipeline({ created_at: oct(3) });
    const { pipeline: tiedHigh } = await f.pipeline({ id: high, created_at: oct(2) });
    const { pipeline: tiedLow } = await f.pipeline({ id: low, created_at: oct(2) });
    const { pipeline: inactive } = await f.pipeline({ is_active: false, created_at: oct(1) });
    await (await crmFixtures(store())).pipeline();
    const organizationId = f.organizationId;
    expect(await store().pipelines.listActive(organizationId, { limit: 10, offset: 0 })).toEqual({
      items: [tiedLow, tiedHigh, late],
      total: 3,
    });
    expect(await store().pipelines.listActive(organizationId, { limit: 1, offset: 1 })).toEqual({
      items: [tiedHigh],
      total: 3,
    });
    expect(await store().pipelines.listAll(organizationId)).toEqual([inactive, tiedLow, tiedHigh, late]);
    const locked = await store().transaction((tx) => tx.pipelines.listAll(organizationId, { forUpdate: true }));
    expect(locked).toEqual([inactive, tiedLow, tiedHigh, late]);
  });

  it('reads pipelines and stages of the organization only, stages by position', async () => {
    const f = await crmFixtures(store());
    const other = await crmFixtures(store());
    const { pipeline, stages } = await f.pipeline();
    expect(await store().pipelines.get(f.organizationId, pipeline.id)).toEqual(pipeline);
    expect(await store().pipelines.get(other.organizationId, pipeline.id)).toBeNull();
    expect(await store().pipelines.listStages(pipeline.id)).toEqual(stages);
    expect(await store().pipelines.getStage(f.organizationId, stages[2]?.id ?? '')).toEqual(stages[2]);
    expect(await store().pipelines.getStage(other.organizationId, stages[2]?.id ?? '')).toBeNull();
  });

  it('finds the default pipeline, active or not', async () => {
    const f = await crmFixtures(store());
    expect(await store().pipelines.getDefault(f.organizationId)).toBeNull();
    await f.pipeline();
    const { pipeline } = await f.pipeline({ is_default: true });
    expect(await store().pipelines.getDefault(f.organizationId)).toEqual(pipeline);
    const other = await crmFixtures(store());
    expect(await store().pipelines.getDefault(other.organizationId)).toBeNull();
  });

  it('updates a pipeline of the organization only', async () => {
    const f = await crmFixtures(store());
    const { pipeline } = await f.pipeline();
    const other = await crmFixtures(store());
    expect(await store().pipelines.update(other.organizationId, pipeline.id, { name: 'Stolen' })).toBeNull();
    const updated = await store().pipelines.update(f.organizationId, pipeline.id, {
      name: 'Channel partners',
      is_active: false,
      updated_at: oct(20),
    });
    expect(updated).toEqual({ ...pipeline, name: 'Channel partners', is_active: false, updated_at: oct(20) });
  });

  it('refuses a second default pipeline in an organization, on insert and on update', async () => {
    const f = await crmFixtures(store());
    const { pipeline: first } = await f.pipeline({ is_default: true });
    await expect(f.pipeline({ is_default: true })).rejects.toEqual(
      expect.objectContaining({ name: 'UniqueViolation', constraint: uniqueConstraints.defaultPipeline }),
    );
    const { pipeline: second } = await f.pipeline({ created_at: oct(2) });
    await expect(store().pipelines.update(f.organizationId, second.id, { is_default: true })).rejects.toEqual(
      expect.objectContaining({ constraint: uniqueConstraints.defaultPipeline }),
    );
    // The failed insert left neither the pipeline nor its stages.
    expect((await store().pipelines.listAll(f.organizationId)).map((p) => p.id)).toEqual([first.id, second.id]);
    // Moving the default: clear the old one first, in one transaction.
    await store().transaction(async (tx) => {
      await tx.pipelines.update(f.organizationId, first.id, { is_default: false });
      await tx.pipelines.update(f.organizationId, second.id, { is_default: true });
    });
    expect((await store().pipelines.getDefault(f.organizationId))?.id).toBe(second.id);
    // Another organization has a default of its own.
    await (await crmFixtures(store())).pipeline({ is_default: true });
  });

  it('round-trips a deal: numbers, JSON, timestamps and nulls', async () => {
    const f = await crmFixtures(store());
    const { pipeline, stages } = await f.pipeline();
    const lead = await f.lead();
    const deal = await f.deal({
      lead_id: lead.id,
      pipeline_id: pipeline.id,
      stage_id: stages[1]?.id ?? null,
      owner_id: f.ownerId,
      value: 24000.5,
      probability: 60,
      expected_close_date: '2026-12-15T00:00:00.000Z',
      actual_close_date: '2026-11-24T15:30:00.123Z',
      notes: 'Pilot for two warehouses.',
      custom_fields: { source_campaign: 'Q4 Founders Outreach', sites: 2, nested: { ok: true } },
      metadata: { sequence_lead_id: crypto.randomUUID() },
    });
    expect(await store().deals.get(f.organizationId, deal.id)).toEqual(deal);
    expect(await store().transaction((tx) => tx.deals.get(f.organizationId, deal.id, { forUpdate: true }))).toEqual(
      deal,
    );
    expect(await store().deals.get((await crmFixtures(store())).organizationId, deal.id)).toBeNull();
    const bare = await f.deal();
    expect(await store().deals.get(f.organizationId, bare.id)).toEqual(bare);
  });

  it('lists deals newest first, ties by id, filtered by stage, owner and lead (AND)', async () => {
    const f = await crmFixtures(store());
    const { stages } = await f.pipeline();
    const [open, , won] = stages;
    const lead = await f.lead();
    const oldest = await f.deal({ created_at: oct(1), stage_id: open?.id, lead_id: lead.id });
    const tiedLow = await f.deal({ id: low, created_at: oct(2), stage_id: won?.id, owner_id: f.ownerId });
    const tiedHigh = await f.deal({
      id: high,
      created_at: oct(2),
      stage_id: open?.id,
      owner_id: f.ownerId,
      lead_id: lead.id,
    });
    await (await crmFixtures(store())).deal();
    const list = (filter: { stage_id?: string; owner_id?: string; lead_id?: string }, limit = 10, offset = 0) =>
      store().deals.list(f.organizationId, { ...filter, limit, offset });
    expect(await list({})).toEqual({ items: [tiedHigh, tiedLow, oldest], total: 3 });
    expect(await list({}, 1, 1)).toEqual({ items: [tiedLow], total: 3 });
    expect(await list({ stage_id: open?.id })).toEqual({ items: [tiedHigh, oldest], total: 2 });
    expect(await list({ owner_id: f.ownerId })).toEqual({ items: [tiedHigh, tiedLow], total: 2 });
    expect(await list({ lead_id: lead.id, owner_id: f.ownerId })).toEqual({ items: [tiedHigh], total: 1 });
    expect(await list({ stage_id: crypto.randomUUID() })).toEqual({ items: [], total: 0 });
  });

  it('updates a deal of the organization only; null clears, undefined keeps', async () => {
    const f = await crmFixtures(store());
    const { pipeline, stages } = await f.pipeline();
    const deal = await f.deal({
      pipeline_id: pipeline.id,
      stage_id: stages[0]?.id ?? null,
      value: 1000,
      notes: 'first call',
      custom_fields: { a: 1 },
    });
    expect(await store().deals.update((await crmFixtures(store())).organizationId, deal.id, { name: 'x' })).toBeNull();
    const updated = await store().deals.update(f.organizationId, deal.id, {
      stage_id: stages[2]?.id ?? null,
      actual_close_date: oct(25),
      notes: null,
      custom_fields: null,
      value: undefined,
      updated_at: oct(25),
    });
    expect(updated).toEqual({
      ...deal,
      stage_id: stages[2]?.id,
      actual_close_date: oct(25),
      notes: null,
      custom_fields: null,
      updated_at: oct(25),
    });
    expect(await store().deals.get(f.organizationId, deal.id)).toEqual(updated);
  });
});
