/** `POST /campaigns/{campaign_id}/ab-testing` and `.../ab-testing/promote`. */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence, interceptStore, q4Sequence } from '../support/campaign-setup.ts';

interface Result {
  message: string;
  campaign_id: string;
  ab_testing_enabled: boolean | null;
  traffic_split: number | null;
  winner: string | null;
  error?: string;
}

describeBackends('A/B testing', (store) => {
  let api: TestApi;
  const setup = async (options: { store?: Store } = {}) => {
    api = await createTestApi(options.store ?? store());
  };
  const ab = (id: string, body: unknown) => api.call<Result>('POST', `/v1/campaigns/${id}/ab-testing`, { body });
  const promote = (id: string, variation: string) =>
    api.call<Result>('POST', `/v1/campaigns/${id}/ab-testing/promote`, { body: { variation } });
  const record = (id: string) => store().campaigns.get(api.organizationId, id);

  it('turns on with a split (50 by default) and off keeping the split; repeats are accepted', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const on = await ab(id, { enabled: true, traffic_split: 30 });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({
      success: true,
      message: 'A/B testing enabled',
      campaign_id: id,
      ab_testing_enabled: true,
      traffic_split: 30,
      winner: null,
    });
    const off = await ab(id, { enabled: false, traffic_split: 80 });
    expect(off.body).toMatchObject({ message: 'A/B testing disabled', ab_testing_enabled: false, traffic_split: 30 });
    expect((await ab(id, { enabled: false })).status).toBe(200);
    const again = await ab(id, { enabled: true });
    expect(again.body).toMatchObject({ ab_testing_enabled: true, traffic_split: 50 });
    expect((await ab(id, { enabled: true })).status).toBe(200);
  });

  it('refuses to turn on without a variation_b with steps, changing nothing', async () => {
    await setup();
    const none = await createCampaign(api);
    const single = await createCampaign(api, { sequence: emailSequence() });
    const emptyB = await createCampaign(api, { sequence: { ...emailSequence(), variation_b: [] } });
    for (const id of [none, single, emptyB]) {
      const before = await record(id);
      const answer = await ab(id, { enabled: true });
      expect(answer.status).toBe(409);
      expect(answer.body.error).toBe('VARIATION_B_MISSING');
      expect(await record(id)).toEqual(before);
    }
  });

  it('validates the body', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    for (const body of [
      {},
      { enabled: true, traffic_split: 101 },
      { enabled: true, traffic_split: 5.5 },
      { enabled: 1 },
    ]) {
      const answer = await ab(id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it('promotes b: its steps with their IDs become variation_a, testing stops, the winner is kept', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    await ab(id, { enabled: true, traffic_split: 40 });
    const answer = await promote(id, 'b');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: 'Variation b promoted to variation_a; A/B testing disabled',
      campaign_id: id,
      ab_testing_enabled: false,
      traffic_split: 40,
      winner: 'b',
    });
    const campaign = await record(id);
    expect(campaign?.sequence).toEqual({ variation_a: q4Sequence().variation_b });
    expect(campaign?.ab_winner).toBe('b');
    // Nothing left to promote; turning a new test on needs a new variation_b.
    expect((await promote(id, 'a')).body.error).toBe('VARIATION_B_MISSING');
    await api.call('PUT', `/v1/campaigns/${id}/sequence`, { body: { sequence: q4Sequence() } });
    expect((await ab(id, { enabled: true })).body.winner).toBeNull();
  });

  it('promotes a whether or not testing is on, removing variation_b', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const answer = await promote(id, 'a');
    expect(answer.body).toMatchObject({ ab_testing_enabled: false, winner: 'a' });
    expect((await record(id))?.sequence).toEqual({ variation_a: q4Sequence().variation_a });
  });

  it('keeps both arms when the second write of a promotion fails', async () => {
    let fail = false;
    const faulty = interceptStore(store(), {
      campaigns: (inner) => ({
        async update(...args) {
          if (fail) throw new Error('disk full');
          return inner.update(...args);
        },
      }),
    });
    await setup({ store: faulty });
    const id = await createCampaign(api, { sequence: q4Sequence() });
    await ab(id, { enabled: true });
    fail = true;
    expect((await promote(id, 'b')).status).toBe(500);
    expect(await record(id)).toMatchObject({ sequence: q4Sequence(), ab_testing_enabled: true, ab_winner: null });
  });

  it('refuses to promote without a variation_b and validates the arm', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: emailSequence() });
    const before = await record(id);
    const missing = await promote(id, 'a');
    expect(missing.status).toBe(409);
    expect(missing.body.error).toBe('VARIATION_B_MISSING');
    expect(await record(id)).toEqual(before);
    const bad = await promote(id, 'c');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('VALIDATION_ERROR');
  });

  it('hides another organization’s campaign', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const other = await createTestApi(store());
    for (const [path, body] of [
      ['ab-testing', { enabled: true }],
      ['ab-testing/promote', { variation: 'b' }],
    ] as const) {
      const answer = await other.call<Result>('POST', `/v1/campaigns/${id}/${path}`, { body });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('CAMPAIGN_NOT_FOUND');
    }
    expect((await record(id))?.sequence).toEqual(q4Sequence());
  });
});
