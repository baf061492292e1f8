/**
 * The campaign analysis over seeded activity: every group by hand, the window, the arm filter.
 * Every answer is checked against the OpenAPI document.
 */
import { expect, it } from 'vitest';
import type { TestApi } from '../support/api.ts';
import { seedAnalytics } from '../support/analytics-seed.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('analytics: analysis', (store) => {
  let api: TestApi;

  const seed = async () => {
    const seeded = await seedAnalytics(store());
    api = seeded.api;
    return seeded;
  };

  const get = <T = Record<string, unknown>>(path: string, query = '') =>
    api.call<T>('GET', `${path}${query ? `?${query}` : ''}`);

  it('analysis: every group, all time and all arms, by hand', async () => {
    const { campaign } = await seed();
    const answer = await get(`/v1/campaigns/${campaign.id}/analysis`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      analysis: {
        leads: { active: 2, completed: 0, enrolled: 5, not_contacted: 1, paused: 2 },
        funnel: {
          contacted: 4,
          enrolled: 5,
          replied: 3,
          positive: 1,
          meetings: 2,
          reply_rate_pct: 75,
          positive_rate_pct: 25,
          meeting_rate_pct: 200,
        },
        replies: { total: 3, positive: 1, neutral: 0, negative: 1, ooo: 1 },
        channels: {
          email: { sent: 4, opened: 2, open_rate_pct: 50, replied_leads: 3, positive_leads: 1 },
          linkedin: {
            requests: 1,
            accepted: 1,
            accept_rate_pct: 100,
            connected_leads: 1,
            messages: 0,
            replied_leads: 0,
            positive_leads: 0,
          },
        },
        window: { from: null, to: null, variation: 'all' },
        by_variation: {
          a: {
            leads: { active: 1, completed: 0, enrolled: 2, not_contacted: 0, paused: 1 },
            funnel: {
              contacted: 2,
              enrolled: 2,
              replied: 1,
              positive: 1,
              meetings: 1,
              reply_rate_pct: 50,
              positive_rate_pct: 50,
              meeting_rate_pct: 100,
            },
            replies: { total: 1, positive: 1, neutral: 0, negative: 0, ooo: 0 },
          },
          b: {
            leads: { active: 1, completed: 0, enrolled: 2, not_contacted: 0, paused: 1 },
            funnel: {
              contacted: 2,
              enrolled: 2,
              replied: 2,
              positive: 0,
              meetings: 1,
              reply_rate_pct: 100,
              positive_rate_pct: 0,
              meeting_rate_pct: null,
            },
            replies: { total: 2, positive: 0, neutral: 0, negative: 1, ooo: 1 },
          },
          unassigned: {
            leads: { active: 0, completed: 0, enrolled: 1, not_contacted: 1, paused: 0 },
            funnel: {
              contacted: 0,
              enrolled: 1,
              replied: 0,
              positive: 0,
              meetings: 0,
              reply_rate_pct: null,
              positive_rate_pct: null,
              meeting_rate_pct: null,
            },
            replies: { total: 0, positive: 0, neutral: 0, negative: 0, ooo: 0 },
          },
        },
      },
    });
  });

  it('analysis: the window counts first events from its start, and names it', async () => {
    const { campaign } = await seed();
    const expected = {
      leads: { active: 2, completed: 0, enrolled: 5, not_contacted: 1, paused: 2 },
      funnel: {
        contacted: 2,
        enrolled: 5,
        replied: 2,
        positive: 0,
        meetings: 2,
        reply_rate_pct: 100,
        positive_rate_pct: 0,
        meeting_rate_pct: null,
      },
      channels: {
        email: { sent: 1, opened: 1, open_rate_pct: 100, replied_leads: 2, positive_leads: 0 },
        linkedin: expect.objectContaining({ requests: 1, accepted: 1 }),
      },
    };
    for (const filter of ['7d', '2026-11-03T12:00:00Z', '2026-11-03T14:00:00%2B02:00']) {
      const answer = await get<{ analysis: Record<string, unknown> }>(
        `/v1/campaigns/${campaign.id}/analysis`,
        `date_filter=${filter}`,
      );
      expect(answer.status, filter).toBe(200);
      expect(answer.body.analysis, filter).toMatchObject({
        ...expected,
        window: { from: '2026-11-03T12:00:00.000+00:00', to: null, variation: 'all' },
      });
    }
    const byDate = await get<{ analysis: { window: unknown } }>(
      `/v1/campaigns/${campaign.id}/analysis`,
      'date_filter=2026-11-03',
    );
    expect(byDate.body.analysis.window).toEqual({ from: '2026-11-03T00:00:00.000+00:00', to: null, variation: 'all' });
    const empty = await get<{ analysis: { window: unknown } }>(`/v1/campaigns/${campaign.id}/analysis`, 'date_filter=');
    expect(empty.body.analysis.window).toEqual({ from: null, to: null, variation: 'all' });
  });

  it('analysis: one arm restricts every group, by_variation keeps all three', async () => {
    const { campaign } = await seed();
    const all = await get<{ analysis: { by_variation: Record<string, unknown> } }>(
      `/v1/campaigns/${campaign.id}/analysis`,
    );
    for (const arm of ['a', 'b', 'unassigned']) {
      const answer = await get<{ analysis: Record<string, unknown> & { by_variation: Record<string, unknown> } }>(
        `/v1/campaigns/${campaign.id}/analysis`,
        `variation=${arm}`,
      );
      const { leads, funnel, replies, window, by_variation } = answer.body.analysis;
      expect({ leads, funnel, replies }, arm).toEqual(all.body.analysis.by_variation[arm]);
      expect(by_variation).toEqual(all.body.analysis.by_variation);
      expect(window).toEqual({ from: null, to: null, variation: arm });
    }
    const a = await get<{ analysis: { channels: unknown } }>(`/v1/campaigns/${campaign.id}/analysis`, 'variation=a');
    expect(a.body.analysis.channels).toEqual({
      email: { sent: 2, opened: 1, open_rate_pct: 50, replied_leads: 1, positive_leads: 1 },
      linkedin: {
        requests: 1,
        accepted: 1,
        accept_rate_pct: 100,
        connected_leads: 1,
        messages: 0,
        replied_leads: 0,
        positive_leads: 0,
      },
    });
  });
});
