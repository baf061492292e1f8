/** CRM pipelines: list the active ones, get one with its stages, update under the default rules. */
import { expect, it } from 'vitest';
import type { PipelineRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { type CrmFixtures, crmFixtures } from '../support/crm-fixtures.ts';
import { type ErrorAnswer, steppingClock } from '../support/webhook-api.ts';

interface PipelineBody {
  id: string;
  name: string;
  is_active: boolean;
  is_default: boolean;
  created_at: string;
  updated_at: string;
  stages?: Array<{ id: string; pipeline_id: string; name: string; position: number; probability: number }>;
}

/** `minutes` after now: later than the seeded default pipeline, so "oldest first" is known. */
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describeBackends('crm: pipelines', (store) => {
  let api: TestApi;
  let f: CrmFixtures;
  let defaultId: string;
  const setup = async (on: Store = store()) => {
    api = await createTestApi(on, { clock: steppingClock(Date.now() + 3_600_000) });
    f = await crmFixtures(on, api.organizationId, api.ownerId);
    const list = await api.call<{ pipelines: PipelineBody[] }>('GET', '/v1/crm/pipelines');
    defaultId = list.body.pipelines[0]?.id ?? '';
  };
  const get = (id: string) => api.call<{ pipeline: PipelineBody } & ErrorAnswer>('GET', `/v1/crm/pipelines/${id}`);
  const patch = (id: string, body: unknown) =>
    api.call<{ pipeline: PipelineBody; message: string } & ErrorAnswer>('PATCH', `/v1/crm/pipelines/${id}`, { body });

  it('lists active pipelines oldest first, without stages, and pages', async () => {
    await setup();
    const { pipeline: partnerships } = await f.pipeline({ created_at: later(1), updated_at: later(1) });
    await f.pipeline({ name: 'Retired', is_active: false, created_at: later(2) });
    const { pipeline: expansion } = await f.pipeline({ name: 'Expansion', created_at: later(3) });
    const list = await api.call<{ pipelines: PipelineBody[]; total: number; limit: number; has_more: boolean }>(
      'GET',
      '/v1/crm/pipelines',
    );
    expect(list.body).toMatchObject({ total: 3, limit: 100, has_more: false });
    expect(list.body.pipelines.map((p) => [p.name, p.is_default])).toEqual([
      ['New Business', true],
      ['Partnerships', false],
      ['Expansion', false],
    ]);
    expect(list.body.pipelines[1]).toEqual({
      id: partnerships.id,
      name: 'Partnerships',
      is_active: true,
      is_default: false,
      created_at: partnerships.created_at.replace('Z', '+00:00'),
      updated_at: partnerships.updated_at.replace('Z', '+00:00'),
    });
    const page = await api.call<{ pipelines: PipelineBody[]; has_more: boolean }>(
      'GET',
      '/v1/crm/pipelines?limit=1&offset=2',
    );
    expect(page.body.pipelines.map((p) => p.id)).toEqual([expansion.id]);
    for (const query of ['limit=0', 'limit=501', 'offset=-1']) {
      const bad = await api.call<ErrorAnswer>('GET', `/v1/crm/pipelines?${query}`);
      expect([bad.status, bad.body.error], query).toEqual([400, 'VALIDATION_ERROR']);
    }
    const other = await createTestApi(store());
    const theirs = await other.call<{ pipelines: PipelineBody[] }>('GET', '/v1/crm/pipelines');
    expect(theirs.body.pipelines.map((p) => p.id)).not.toContain(partnerships.id);
  });

  it('gets a pipeline with its stages in order, inactive ones included; NOT_FOUND otherwise', async () => {
    await setup();
    const answer = await get(defaultId);
    expect(answer.status).toBe(200);
    expect(answer.body.pipeline.stages?.map((s) => [s.name, s.position, s.probability])).toEqual([
      ['Qualified', 0, 20],
      ['Meeting booked', 1, 40],
      ['Proposal', 2, 60],
      ['Closed won', 3, 100],
      ['Closed lost', 4, 0],
    ]);
    expect(answer.body.pipeline.stages?.every((s) => s.pipeline_id === defaultId)).toBe(true);
    const { pipeline: retired } = await f.pipeline({ is_active: false });
    expect((await get(retired.id)).body.pipeline.is_active).toBe(false);
    const other = await createTestApi(store());
    for (const [caller, id] of [
      [api, crypto.randomUUID()],
      [other, defaultId],
      [api, 'not-a-uuid'],
    ] as const) {
      const missing = await caller.call<ErrorAnswer>('GET', `/v1/crm/pipelines/${id}`);
      expect([missing.status, missing.body.error]).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('renames a pipeline and answers it with its stages', async () => {
    await setup();
    const before = await get(defaultId);
    const renamed = await patch(defaultId, { name: 'New Business (Outbound)' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.message).toBe('Pipeline updated');
    expect(renamed.body.pipeline).toMatchObject({ name: 'New Business (Outbound)', is_default: true });
    expect(renamed.body.pipeline.stages).toEqual(before.body.pipeline.stages);
    expect(renamed.body.pipeline.updated_at).not.toBe(before.body.pipeline.updated_at);
    expect((await get(defaultId)).body.pipeline).toEqual(renamed.body.pipeline);
  });

  it('makes another pipeline the default and clears the previous one', async () => {
    await setup();
    const { pipeline: partnerships } = await f.pipeline({ created_at: later(1) });
    const made = await patch(partnerships.id, { is_default: true });
    expect(made.status).toBe(200);
    expect(made.body.pipeline.is_default).toBe(true);
    expect((await get(defaultId)).body.pipeline.is_default).toBe(false);
    const list = await api.call<{ pipelines: PipelineBody[] }>('GET', '/v1/crm/pipelines');
    expect(list.body.pipelines.filter((p) => p.is_default).map((p) => p.id)).toEqual([partnerships.id]);
    // Saying it again changes nothing.
    expect((await patch(partnerships.id, { is_default: true })).status).toBe(200);
  });

  it('keeps exactly one active default: refuses unsetting or deactivating it', async () => {
    await setup();
    const unset = await patch(defaultId, { is_default: false });
    expect(unset.status).toBe(400);
    expect(unset.body.error).toBe('VALIDATION_ERROR');
    expect(unset.body.details?.errors).toEqual([
      expect.objectContaining({ field: 'body.is_default', type: 'default_pipeline' }),
    ]);
    const deactivate = await patch(defaultId, { is_active: false, name: 'Closed down' });
    expect(deactivate.body.message).toBe(
      'Request validation failed: the default pipeline cannot be deactivated; make another pipeline the default first.',
    );
    expect(deactivate.body.details?.errors).toEqual([
      { field: 'body.is_active', message: 'the default pipeline cannot be deactivated', type: 'default_pipeline' },
    ]);
    const after = await get(defaultId);
    expect(after.body.pipeline).toMatchObject({ name: 'New Business', is_active: true, is_default: true });
  });

  it('deactivates other pipelines, and makes one default only with is_active: true in the same body', async () => {
    await setup();
    const { pipeline } = await f.pipeline({ created_at: later(1) });
    const deactivated = await patch(pipeline.id, { is_active: false });
    expect(deactivated.body.pipeline.is_active).toBe(false);
    const list = await api.call<{ pipelines: PipelineBody[] }>('GET', '/v1/crm/pipelines');
    expect(list.body.pipelines.map((p) => p.id)).toEqual([defaultId]);
    const refused = await patch(pipeline.id, { is_default: true });
    expect(refused.body.details?.errors).toEqual([
      expect.objectContaining({ field: 'body.is_default', type: 'default_pipeline' }),
    ]);
    expect((await get(defaultId)).body.pipeline.is_default).toBe(true);
    const both = await patch(pipeline.id, { is_default: true, is_active: true });
    expect(both.body.pipeline).toMatchObject({ is_default: true, is_active: true });
    expect((await get(defaultId)).body.pipeline.is_default).toBe(false);
  });

  it('refuses empty or unknown bodies and another organization’s pipeline', async () => {
    await setup();
    for (const body of [{}, { colour: 'red' }, { name: '' }]) {
      const answer = await patch(defaultId, body);
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR']);
    }
    const other = await createTestApi(store());
    const foreign = await other.call<ErrorAnswer>('PATCH', `/v1/crm/pipelines/${defaultId}`, {
      body: { is_default: true },
    });
    expect([foreign.status, foreign.body.error]).toEqual([404, 'NOT_FOUND']);
    const unknown = await patch(crypto.randomUUID(), { name: 'x' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'NOT_FOUND']);
  });

  it('keeps one default under concurrent changes', async () => {
    await setup();
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push((await f.pipeline({ created_at: later(i) })).pipeline.id);
    const answers = await Promise.all(ids.map((id) => patch(id, { is_default: true })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const all = await store().pipelines.listAll(api.organizationId);
    expect(all.filter((p) => p.is_default)).toHaveLength(1);
  });

  it('leaves the old default in place when making a new one fails midway', async () => {
    const failing = { on: false };
    const base = store();
    const failSet = (tx: Store): Store => ({
      ...tx,
      pipelines: {
        ...tx.pipelines,
        update: async (organizationId: string, id: string, change: Partial<PipelineRecord>) => {
          if (failing.on && change.is_default === true) throw new Error('connection reset');
          return tx.pipelines.update(organizationId, id, change);
        },
      },
    });
    await setup({ ...base, transaction: (work) => base.transaction((tx) => work(failSet(tx))) });
    const { pipeline } = await f.pipeline({ created_at: later(1) });
    failing.on = true;
    const failed = await patch(pipeline.id, { is_default: true, name: 'Renamed' });
    expect([failed.status, failed.body.error]).toEqual([500, 'INTERNAL_ERROR']);
    expect((await get(defaultId)).body.pipeline.is_default).toBe(true);
    expect((await get(pipeline.id)).body.pipeline).toMatchObject({ is_default: false, name: 'Partnerships' });
  });
});
