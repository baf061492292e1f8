/**
 * `PUT /campaigns/{campaign_id}/sequence` and `PATCH .../sequence/steps/{step_id}`: every
 * documented answer, legacy sequences with shared step IDs, and concurrent edits (the
 * compare-and-swap: every edit either lands or answers SEQUENCE_MODIFIED, none is lost).
 */
import { expect, it } from 'vitest';
import type { Sequence } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence, interceptStore, q4Sequence } from '../support/campaign-setup.ts';
import { storeLegacySequence } from '../support/legacy-sequence.ts';

interface Failure {
  error: string;
  message: string;
  details: { step_id?: number; errors?: Array<{ field: string; type: string; message?: string }> };
}

describeBackends('sequences', (store) => {
  let api: TestApi;
  const setup = async (options: { store?: Store; unlimited?: boolean } = {}) => {
    api = await createTestApi(options.store ?? store(), {
      rateLimits: options.unlimited ? { perEndpoint: 100_000, total: 100_000 } : undefined,
    });
  };
  const stored = async (id: string) => (await store().campaigns.get(api.organizationId, id))?.sequence as Sequence;
  const put = <T = { sequence: Sequence; message: string }>(id: string, sequence: unknown) =>
    api.call<T>('PUT', `/v1/campaigns/${id}/sequence`, { body: { sequence } });
  const patchStep = <T = Failure>(id: string, stepId: number | string, updates: unknown) =>
    api.call<T>('PATCH', `/v1/campaigns/${id}/sequence/steps/${stepId}`, { body: { updates } });

  it('replaces the whole sequence and answers it as saved', async () => {
    await setup();
    const id = await createCampaign(api);
    const answer = await put(id, q4Sequence());
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, message: 'Sequence replaced', campaign_id: id });
    expect(answer.body.sequence).toEqual(q4Sequence());
    const read = await api.call<{ campaign: { sequence: Sequence } }>('GET', `/v1/campaigns/${id}`);
    expect(read.body.campaign.sequence).toEqual(q4Sequence());
  });

  it('removes an empty variation_b and turns A/B testing off with it', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    await api.call('POST', `/v1/campaigns/${id}/ab-testing`, { body: { enabled: true, traffic_split: 30 } });
    const answer = await put(id, { variation_a: q4Sequence().variation_a, variation_b: [] });
    expect(answer.body.sequence).toEqual({ variation_a: q4Sequence().variation_a });
    const campaign = await store().campaigns.get(api.organizationId, id);
    expect(campaign).toMatchObject({ ab_testing_enabled: false, traffic_split: 30 });
  });

  it('lists every broken rule, step IDs shared across variations included, and saves nothing', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: emailSequence() });
    const answer = await put<Failure>(id, {
      variation_a: [
        { id: 1, type: 'linkedin_message', message: 'hi', delay: 1 },
        { id: 2, type: 'email', subject: 's', content: 'c', delay: 91 },
      ],
      variation_b: [{ id: 1, type: 'email', subject: 's', content: 'c' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('SEQUENCE_VALIDATION_FAILED');
    expect(answer.body.details.errors?.map((e) => `${e.field} ${e.type}`)).toEqual([
      'sequence.variation_a[0] message_outside_yes_branch',
      'sequence.variation_a[1].delay delay_out_of_range',
      'sequence.variation_b[0] duplicate_step_id',
    ]);
    expect(await stored(id)).toEqual(emailSequence());
  });

  it('refuses a sequence past 40 steps for its length, with the rules of its first 40 steps only', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: emailSequence() });
    // 30,000 email steps without subject or content: each breaks a rule (an answer of 100 MB
    // when every step's issue was listed, and its message repeated them all).
    const steps = Array.from({ length: 30_000 }, (_, i) => ({ id: i + 1, type: 'email' }));
    const answer = await put<Failure>(id, { variation_a: steps });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('SEQUENCE_VALIDATION_FAILED');
    const issues = answer.body.details.errors ?? [];
    expect(issues.map((e) => e.type)).toEqual([
      ...Array<string>(40).fill('email_needs_subject_and_content'),
      'too_many_steps',
    ]);
    expect(issues.at(-2)?.field).toBe('sequence.variation_a[39]');
    expect(issues.at(-1)?.message).toBe(
      'a sequence has at most 40 steps (both variations and all branches); this one has 30000',
    );
    // The message lists every failed rule (section 2): 41 of them.
    expect(answer.body.message).toMatch(/^Sequence validation failed \(41 rules\): sequence\.variation_a\[0\] /);
    expect(answer.body.message.match(/sequence\.variation_a\[\d+\] email step needs/g)).toHaveLength(40);
    expect(answer.body.message).toContain('sequence a sequence has at most 40 steps');
    expect(await stored(id)).toEqual(emailSequence());
  });

  it('answers VALIDATION_ERROR for a step without an integer id or a known type', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: emailSequence() });
    for (const step of [{ type: 'email' }, { id: 1.5, type: 'email' }, { id: 1, type: 'fax' }]) {
      const answer = await put<Failure>(id, { variation_a: [step] });
      expect(answer.status, JSON.stringify(step)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
    expect((await put<Failure>(id, undefined)).body.error).toBe('VALIDATION_ERROR');
    expect(await stored(id)).toEqual(emailSequence());
  });

  it('saves nothing when the second write of a replacement fails', async () => {
    let failUpdates = false;
    const faulty = interceptStore(store(), {
      campaigns: (inner) => ({
        async update(...args) {
          if (failUpdates) throw new Error('disk full');
          return inner.update(...args);
        },
      }),
    });
    await setup({ store: faulty });
    const id = await createCampaign(api, { sequence: q4Sequence() });
    await api.call('POST', `/v1/campaigns/${id}/ab-testing`, { body: { enabled: true } });
    failUpdates = true;
    const answer = await put<Failure>(id, emailSequence());
    expect(answer.status).toBe(500);
    expect(await stored(id)).toEqual(q4Sequence());
    expect((await store().campaigns.get(api.organizationId, id))?.ab_testing_enabled).toBe(true);
  });

  it('updates a step found at any depth in either variation', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const answer = await patchStep<{ message: string; campaign_id: string }>(id, 11, { message: 'New text', delay: 2 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, message: 'Step 11 updated', campaign_id: id });
    const expected = q4Sequence();
    const branch = expected.variation_b?.[3]?.branches?.yes?.[0];
    Object.assign(branch ?? {}, { message: 'New text', delay: 2 });
    expect(await stored(id)).toEqual(expected);
  });

  it('answers NO_SEQUENCE, STEP_NOT_FOUND and NOT_FOUND as documented', async () => {
    await setup();
    const empty = await createCampaign(api);
    const noSequence = await patchStep(empty, 1, { delay: 1 });
    expect(noSequence.status).toBe(400);
    expect(noSequence.body.error).toBe('NO_SEQUENCE');
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const missing = await patchStep(id, 13, { delay: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'STEP_NOT_FOUND', details: { step_id: 13 } });
    const malformed = await patchStep(id, 'one', { delay: 1 });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('NOT_FOUND');
  });

  it('refuses structural keys and empty updates with VALIDATION_ERROR', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    for (const updates of [{ type: 'email' }, { id: 99 }, { branches: { yes: [], no: [] } }, {}]) {
      const answer = await patchStep(id, 1, updates);
      expect(answer.status, JSON.stringify(updates)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
    expect(await stored(id)).toEqual(q4Sequence());
  });

  it('re-validates the whole sequence with the change and saves nothing when a rule breaks', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const late = await patchStep(id, 5, { delay: 120 });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ error: 'SEQUENCE_VALIDATION_FAILED', details: { step_id: 5 } });
    expect(late.body.details.errors?.map((e) => `${e.field} ${e.type}`)).toEqual([
      'sequence.variation_a[3].branches.yes[0].delay delay_out_of_range',
    ]);
    const blank = await patchStep(id, 6, { subject: ' ' });
    expect(blank.body.details.errors?.map((e) => e.type)).toEqual(['email_needs_subject_and_content']);
    expect(await stored(id)).toEqual(q4Sequence());
  });

  it('answers STEP_ID_AMBIGUOUS for a legacy sequence whose steps share the ID, until it is replaced', async () => {
    await setup();
    const id = await createCampaign(api);
    const legacy: Sequence = {
      variation_a: [{ id: 1, type: 'email', subject: 'A', content: 'a' }],
      variation_b: [{ id: 1, type: 'email', subject: 'B', content: 'b' }],
    };
    // Stored before rule 6 was enforced: as an old row would hold it.
    await storeLegacySequence(store(), api.organizationId, id, legacy);
    const answer = await patchStep(id, 1, { subject: 'New' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'STEP_ID_AMBIGUOUS', details: { step_id: 1 } });
    expect(answer.body.message).toContain('variation_a and variation_b');
    expect(await stored(id)).toEqual(legacy);
    await put(id, { ...legacy, variation_b: [{ id: 2, type: 'email', subject: 'B', content: 'b' }] });
    expect((await patchStep(id, 1, { subject: 'New' })).status).toBe(200);
  });

  it('answers SEQUENCE_MODIFIED when another write lands between the read and the save', async () => {
    let interfere: (() => Promise<void>) | null = null;
    const racing = interceptStore(store(), {
      campaigns: (inner) => ({
        async get(...args) {
          const campaign = await inner.get(...args);
          const write = interfere;
          interfere = null;
          if (write) await write();
          return campaign;
        },
      }),
    });
    await setup({ store: racing });
    const id = await createCampaign(api, { sequence: emailSequence(3) });
    interfere = async () => {
      const other = await patchStep<{ message: string }>(id, 2, { content: 'Theirs' });
      expect(other.status).toBe(200);
    };
    const answer = await patchStep(id, 1, { content: 'Mine' });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: 'SEQUENCE_MODIFIED', details: { step_id: 1 } });
    const after = await stored(id);
    expect(after.variation_a[0]?.content).toBe(emailSequence(3).variation_a[0]?.content);
    expect(after.variation_a[1]?.content).toBe('Theirs');
    // Retrieved again and retried, the edit lands on top of the other one.
    expect((await patchStep(id, 1, { content: 'Mine' })).status).toBe(200);
    expect((await stored(id)).variation_a.map((s) => s.content).slice(0, 2)).toEqual(['Mine', 'Theirs']);
  });

  it('loses no update under many concurrent edits: each lands or answers 409', async () => {
    await setup({ unlimited: true });
    const steps = 12;
    const id = await createCampaign(api, { sequence: emailSequence(steps) });
    const initial = (await store().campaigns.get(api.organizationId, id))?.sequence_version ?? 0;
    const ids = Array.from({ length: steps }, (_, i) => i + 1);
    const answers = await Promise.all(ids.map((step) => patchStep(id, step, { content: `edit ${step}` })));
    const landed = ids.filter((_, i) => answers[i]?.status === 200);
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.error).toBe('SEQUENCE_MODIFIED');
    }
    expect(landed.length).toBeGreaterThan(0);
    const after = await stored(id);
    for (const step of ids) {
      const expected = landed.includes(step) ? `edit ${step}` : emailSequence(steps).variation_a[step - 1]?.content;
      expect(after.variation_a[step - 1]?.content, `step ${step}`).toBe(expected);
    }
    const version = (await store().campaigns.get(api.organizationId, id))?.sequence_version;
    expect(version).toBe(initial + landed.length);

    // Clients that retry on 409 all get their edit in.
    const retrying = async (step: number) => {
      for (;;) {
        const answer = await patchStep(id, step, { content: `retried ${step}` });
        if (answer.status === 200) return;
        expect(answer.body.error).toBe('SEQUENCE_MODIFIED');
      }
    };
    await Promise.all(ids.map(retrying));
    expect((await stored(id)).variation_a.map((s) => s.content)).toEqual(ids.map((step) => `retried ${step}`));
  });

  it('with every read made before any save, exactly one of the concurrent edits lands', async () => {
    const steps = 6;
    let waiting: Array<() => void> = [];
    let barrier = false;
    // Holds each read until all the edits have read: the worst interleaving, every time.
    const lockstep = interceptStore(store(), {
      campaigns: (inner) => ({
        async get(...args) {
          const campaign = await inner.get(...args);
          if (barrier) {
            await new Promise<void>((resolve) => {
              waiting.push(resolve);
              if (waiting.length === steps) for (const release of waiting.splice(0)) release();
            });
          }
          return campaign;
        },
      }),
    });
    await setup({ store: lockstep });
    const id = await createCampaign(api, { sequence: emailSequence(steps) });
    barrier = true;
    const ids = Array.from({ length: steps }, (_, i) => i + 1);
    const answers = await Promise.all(ids.map((step) => patchStep(id, step, { content: `edit ${step}` })));
    barrier = false;
    waiting = [];
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = ids.find((_, i) => answers[i]?.status === 200);
    const after = await stored(id);
    expect(after.variation_a.filter((s) => s.content?.startsWith('edit '))).toEqual([
      expect.objectContaining({ id: winner, content: `edit ${winner}` }),
    ]);
  });

  it('hides another organization’s campaign', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const other = await createTestApi(store());
    const replaced = await other.call<Failure>('PUT', `/v1/campaigns/${id}/sequence`, {
      body: { sequence: emailSequence() },
    });
    expect(replaced.status).toBe(404);
    expect(replaced.body.error).toBe('CAMPAIGN_NOT_FOUND');
    const patched = await other.call<Failure>('PATCH', `/v1/campaigns/${id}/sequence/steps/1`, {
      body: { updates: { delay: 1 } },
    });
    expect(patched.status).toBe(404);
    expect(patched.body.error).toBe('CAMPAIGN_NOT_FOUND');
    expect(await stored(id)).toEqual(q4Sequence());
  });
});
