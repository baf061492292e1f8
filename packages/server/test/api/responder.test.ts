/** `GET`/`PATCH /campaigns/{campaign_id}/responder`: defaults, changes, and `enabled` as the campaign's flag. */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, interceptStore, tickingClock } from '../support/campaign-setup.ts';

interface Settings {
  campaign_id: string;
  enabled: boolean;
  agent_version: number;
  mode: string;
  goal: string | null;
  booking_url: string | null;
  instructions: string | null;
  escalate_negative: boolean;
  handle_out_of_office: boolean;
  updated_at: string | null;
}
interface Answer {
  message?: string;
  settings: Settings;
  error?: string;
}

describeBackends('responder settings', (store) => {
  let api: TestApi;
  let campaignId: string;
  const setup = async (options: { store?: Store } = {}) => {
    api = await createTestApi(options.store ?? store(), { clock: tickingClock() });
    campaignId = await createCampaign(api);
  };
  const get = (id = campaignId) => api.call<Answer>('GET', `/v1/campaigns/${id}/responder`);
  const patch = (body: unknown, id = campaignId) =>
    api.call<Answer>('PATCH', `/v1/campaigns/${id}/responder`, { body });
  const campaignFlag = async () =>
    (await api.call<{ campaign: { responder_enabled: boolean } }>('GET', `/v1/campaigns/${campaignId}`)).body.campaign
      .responder_enabled;

  it('answers the defaults when nothing was set', async () => {
    await setup();
    const answer = await get();
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      settings: {
        campaign_id: campaignId,
        enabled: false,
        agent_version: 2,
        mode: 'autopilot',
        goal: null,
        booking_url: null,
        instructions: null,
        escalate_negative: false,
        handle_out_of_office: true,
        updated_at: null,
      },
    });
  });

  it('changes the settings sent, and enabled changes the campaign’s responder_enabled too', async () => {
    await setup();
    const answer = await patch({
      enabled: true,
      mode: 'copilot',
      goal: 'Book a 20-minute intro call',
      booking_url: 'https://cal.example.com/sam/intro-20',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Responder settings updated');
    expect(answer.body.settings).toMatchObject({
      enabled: true,
      mode: 'copilot',
      goal: 'Book a 20-minute intro call',
      booking_url: 'https://cal.example.com/sam/intro-20',
      handle_out_of_office: true,
      updated_at: expect.stringMatching(/\+00:00$/),
    });
    expect(await campaignFlag()).toBe(true);
    expect((await get()).body.settings).toEqual(answer.body.settings);

    const cleared = await patch({ goal: null, escalate_negative: true });
    expect(cleared.body.settings).toMatchObject({
      enabled: true,
      mode: 'copilot',
      goal: null,
      booking_url: 'https://cal.example.com/sam/intro-20',
      escalate_negative: true,
    });
    await patch({ enabled: false });
    expect(await campaignFlag()).toBe(false);
    expect((await get()).body.settings.enabled).toBe(false);
  });

  it('refuses an empty body, unknown keys and out-of-limit values', async () => {
    await setup();
    for (const body of [
      {},
      { colour: 'red' },
      { mode: 'turbo' },
      { booking_url: 'not a url' },
      { goal: 'x'.repeat(2001) },
    ]) {
      const answer = await patch(body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
    expect((await get()).body.settings.updated_at).toBeNull();
  });

  it('changes nothing when the campaign’s half of the write fails', async () => {
    let failCampaignUpdates = false;
    const faulty = interceptStore(store(), {
      campaigns: (inner) => ({
        async update(...args) {
          if (failCampaignUpdates) throw new Error('disk full');
          return inner.update(...args);
        },
      }),
    });
    await setup({ store: faulty });
    failCampaignUpdates = true;
    const answer = await patch({ enabled: true, mode: 'copilot' });
    expect(answer.status).toBe(500);
    failCampaignUpdates = false;
    expect(await store().responders.get(campaignId)).toBeNull();
    expect((await get()).body.settings).toMatchObject({ enabled: false, mode: 'autopilot', updated_at: null });
  });

  it('hides another organization’s campaign', async () => {
    await setup();
    const other = await createTestApi(store());
    const read = await other.call<Answer>('GET', `/v1/campaigns/${campaignId}/responder`);
    expect(read.status).toBe(404);
    expect(read.body.error).toBe('CAMPAIGN_NOT_FOUND');
    const write = await other.call<Answer>('PATCH', `/v1/campaigns/${campaignId}/responder`, {
      body: { enabled: true },
    });
    expect(write.status).toBe(404);
    expect(write.body.error).toBe('CAMPAIGN_NOT_FOUND');
    expect(await campaignFlag()).toBe(false);
  });
});
