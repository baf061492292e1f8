/**
 * Daily stats, step funnel, senders, personalization and A/B cohorts over seeded activity, by hand.
 * Every answer is checked against the OpenAPI document.
 */
import { expect, it } from 'vitest';
import type { TestApi } from '../support/api.ts';
import { seedAnalytics } from '../support/analytics-seed.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('analytics: reports', (store) => {
  let api: TestApi;

  const seed = async () => {
    const seeded = await seedAnalytics(store());
    api = seeded.api;
    return seeded;
  };

  const get = <T = Record<string, unknown>>(path: string, query = '') =>
    api.call<T>('GET', `${path}${query ? `?${query}` : ''}`);

  it('daily stats: one row per UTC day with counted events, adding up to the analysis', async () => {
    const { campaign } = await seed();
    const day = (date: string, counts: Record<string, number>) => ({
      date,
      emails_sent: 0,
      emails_opened: 0,
      connection_requests: 0,
      connections_accepted: 0,
      linkedin_messages: 0,
      replies: 0,
      positive_replies: 0,
      meetings: 0,
      ...counts,
    });
    const answer = await get(`/v1/campaigns/${campaign.id}/daily-stats`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      window: { from: null, to: null, variation: 'all' },
      days: [
        day('2026-11-02', { emails_sent: 3, emails_opened: 1 }),
        day('2026-11-03', { replies: 1, positive_replies: 1 }),
        day('2026-11-04', { connection_requests: 1, meetings: 1 }),
        day('2026-11-05', { connections_accepted: 1 }),
        day('2026-11-06', { emails_opened: 1, replies: 1 }),
        day('2026-11-08', { emails_sent: 1 }),
        day('2026-11-09', { replies: 1, meetings: 1 }),
      ],
    });
    const b = await get<{ days: unknown[]; window: unknown }>(
      `/v1/campaigns/${campaign.id}/daily-stats`,
      'variation=b&date_filter=2026-11-06',
    );
    expect(b.body.window).toEqual({ from: '2026-11-06T00:00:00.000+00:00', to: null, variation: 'b' });
    expect(b.body.days).toEqual([
      day('2026-11-06', { emails_opened: 1, replies: 1 }),
      day('2026-11-08', { emails_sent: 1 }),
      day('2026-11-09', { replies: 1, meetings: 1 }),
    ]);
  });

  it('step funnel: reached, completed and replies per step, by hand', async () => {
    const { campaign } = await seed();
    const answer = await get<{ steps: Array<Record<string, unknown>>; window: unknown }>(
      `/v1/campaigns/${campaign.id}/step-funnel`,
    );
    expect(answer.status).toBe(200);
    const row = (variation: string, stepId: number, type: string, branch: string | null, counts: number[]) => ({
      variation,
      step_id: stepId,
      type,
      branch,
      reached: counts[0],
      completed: counts[1],
      replied: counts[2],
      positive: counts[3],
      reply_rate_pct: counts[1] === 0 ? null : Math.round(((counts[2] as number) * 1000) / (counts[1] as number)) / 10,
    });
    expect(answer.body.steps).toEqual([
      // L1, L2 and L4 (no arm yet, its first step overdue) reached step 1; L2's reply follows it.
      row('a', 1, 'email', null, [3, 2, 1, 1]),
      // L2's reply came after step 2 was due: reached, not run.
      row('a', 2, 'view_profile', null, [2, 1, 0, 0]),
      row('a', 3, 'linkedin_connection', null, [1, 1, 0, 0]),
      row('a', 4, 'conditional', null, [1, 1, 0, 0]),
      row('a', 5, 'linkedin_message', '4.yes', [1, 0, 0, 0]),
      row('a', 6, 'email', '4.no', [0, 0, 0, 0]),
      row('b', 7, 'email', null, [2, 2, 2, 0]),
      // L5 replied exactly when step 8 came due: paused first.
      row('b', 8, 'view_profile', null, [1, 0, 0, 0]),
      row('b', 9, 'linkedin_connection', null, [0, 0, 0, 0]),
      row('b', 10, 'conditional', null, [0, 0, 0, 0]),
      row('b', 11, 'linkedin_message', '10.yes', [0, 0, 0, 0]),
      row('b', 12, 'email', '10.no', [0, 0, 0, 0]),
    ]);
    const onlyB = await get<{ steps: Array<{ variation: string }> }>(
      `/v1/campaigns/${campaign.id}/step-funnel`,
      'variation=b',
    );
    expect(onlyB.body.steps.map((s) => s.variation)).toEqual(Array(6).fill('b'));
    const unassigned = await get<{ steps: unknown[] }>(
      `/v1/campaigns/${campaign.id}/step-funnel`,
      'variation=unassigned',
    );
    expect(unassigned.body.steps).toEqual([]);
  });

  it('senders: each account’s sends and replies, assigned accounts first', async () => {
    const { campaign, accounts } = await seed();
    const answer = await get(`/v1/campaigns/${campaign.id}/senders/breakdown`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      window: { from: null, to: null, variation: 'all' },
      senders: [
        {
          account_id: accounts.li,
          platform: 'linkedin',
          label: 'Sam Carter',
          sent: 1,
          replied_leads: 0,
          positive_leads: 0,
          reply_rate_pct: 0,
        },
        {
          account_id: accounts.em1,
          platform: 'email',
          label: 'sam@demo-outreach.example',
          sent: 3,
          replied_leads: 2,
          positive_leads: 1,
          reply_rate_pct: 66.7,
        },
        // No longer assigned; L3's reply names no account and counts for the one that wrote.
        {
          account_id: accounts.em2,
          platform: 'email',
          label: 'outbound2@demo-outreach.example',
          sent: 1,
          replied_leads: 1,
          positive_leads: 0,
          reply_rate_pct: 100,
        },
      ],
    });
    const windowed = await get<{ senders: Array<{ sent: number }>; window: unknown }>(
      `/v1/campaigns/${campaign.id}/senders/breakdown`,
      'date_filter=7d',
    );
    expect(windowed.body.window).toEqual({ from: '2026-11-03T12:00:00.000+00:00', to: null, variation: 'all' });
    expect(windowed.body.senders.map((s) => s.sent)).toEqual([1, 1, 0]);
  });

  it('personalization quality: placeholders of the messages counted', async () => {
    const { campaign } = await seed();
    const answer = await get(`/v1/campaigns/${campaign.id}/personalization-quality`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      window: { from: null, to: null, variation: 'all' },
      messages_sent: 5,
      fields: [
        { name: 'first_name', source: 'lead', uses: 5, filled: 4, fallback: 0, empty: 1, filled_rate_pct: 80 },
        { name: 'icebreaker', source: 'ai', uses: 2, filled: 1, fallback: 1, empty: 0, filled_rate_pct: 50 },
        { name: 'company', source: 'lead', uses: 1, filled: 0, fallback: 0, empty: 1, filled_rate_pct: 0 },
      ],
    });
  });

  it('A/B cohorts: the settings and each arm’s funnel', async () => {
    const { campaign } = await seed();
    const answer = await get(`/v1/campaigns/${campaign.id}/ab-cohorts`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      campaign_id: campaign.id,
      ab_testing_enabled: true,
      traffic_split: 50,
      winner: null,
      window: { from: null, to: null, variation: 'all' },
      cohorts: [
        {
          variation: 'a',
          leads: 2,
          contacted: 2,
          replied: 1,
          positive: 1,
          meetings: 1,
          reply_rate_pct: 50,
          positive_rate_pct: 50,
          meeting_rate_pct: 100,
        },
        {
          variation: 'b',
          leads: 2,
          contacted: 2,
          replied: 2,
          positive: 0,
          meetings: 1,
          reply_rate_pct: 100,
          positive_rate_pct: 0,
          meeting_rate_pct: null,
        },
        {
          variation: 'unassigned',
          leads: 1,
          contacted: 0,
          replied: 0,
          positive: 0,
          meetings: 0,
          reply_rate_pct: null,
          positive_rate_pct: null,
          meeting_rate_pct: null,
        },
      ],
    });
  });
});
