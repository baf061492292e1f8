/**
 * The analytics operations’ documented errors, another organization’s campaign, deleted leads and empty campaigns.
 * Every answer is checked against the OpenAPI document.
 */
import { expect, it } from 'vitest';
import { activityBuilder } from '../support/activity.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { analyticsNow as now, seedAnalytics } from '../support/analytics-seed.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('analytics: errors, isolation, deleted leads', (store) => {
  let api: TestApi;

  const seed = async () => {
    const seeded = await seedAnalytics(store());
    api = seeded.api;
    return seeded;
  };

  const get = <T = Record<string, unknown>>(path: string, query = '') =>
    api.call<T>('GET', `${path}${query ? `?${query}` : ''}`);

  it('a deleted lead leaves every count unchanged', async () => {
    const { campaign, l2 } = await seed();
    const paths = [
      'analysis',
      'daily-stats',
      'step-funnel',
      'senders/breakdown',
      'personalization-quality',
      'ab-cohorts',
    ];
    const before = await Promise.all(paths.map((p) => get(`/v1/campaigns/${campaign.id}/${p}`)));
    const deleted = await api.call('DELETE', `/v1/leads/${l2.lead_id}`);
    expect(deleted.status).toBe(200);
    const after = await Promise.all(paths.map((p) => get(`/v1/campaigns/${campaign.id}/${p}`)));
    for (const [i, path] of paths.entries()) expect(after[i]?.body, path).toEqual(before[i]?.body);
    const bookings = await get<{
      bookings: Array<{ sequence_lead_id: string; lead: unknown; invitee_email: unknown }>;
    }>(`/v1/campaigns/${campaign.id}/bookings`);
    expect(bookings.body.bookings.find((b) => b.sequence_lead_id === l2.id)).toMatchObject({
      lead: null,
      invitee_email: null,
    });
  });

  it.each([
    ['analysis', true],
    ['daily-stats', true],
    ['step-funnel', true],
    ['senders/breakdown', false],
    ['personalization-quality', false],
    ['ab-cohorts', false],
  ])('%s: INVALID_DATE_FILTER, INVALID_VARIATION and over-long values', async (path, hasVariation) => {
    const { campaign } = await seed();
    const call = (query: string) =>
      get<{ error: string; message: string; details?: { errors: Array<{ field: string; type: string }> } }>(
        `/v1/campaigns/${campaign.id}/${path}`,
        query,
      );
    for (const filter of ['last%20month', '0d', '3651d', '2026-13-01', '-7d']) {
      const answer = await call(`date_filter=${filter}`);
      expect(answer.status, filter).toBe(400);
      expect(answer.body.error, filter).toBe('INVALID_DATE_FILTER');
    }
    const long = await call(`date_filter=${'1'.repeat(64)}d`);
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('VALIDATION_ERROR');
    expect(long.body.details?.errors[0]).toMatchObject({ field: 'query.date_filter', type: 'max_length' });
    if (!hasVariation) return;
    for (const variation of ['c', 'A', 'both']) {
      const answer = await call(`variation=${variation}`);
      expect(answer.status, variation).toBe(400);
      expect(answer.body).toMatchObject({
        error: 'INVALID_VARIATION',
        message: `variation '${variation}' is not one of a, b, unassigned, all.`,
      });
    }
    const longVariation = await call(`variation=${'a'.repeat(33)}`);
    expect(longVariation.body.error).toBe('VALIDATION_ERROR');
  });

  it('bookings and queue: malformed `since`, `before` and `limit` are VALIDATION_ERROR', async () => {
    const { campaign } = await seed();
    for (const [path, query, field] of [
      ['bookings', 'since=yesterday', 'query.since'],
      ['bookings', 'since=7d', 'query.since'],
      ['bookings', 'since=2026-11-01T10:00:00', 'query.since'],
      ['queue', 'before=tomorrow', 'query.before'],
      ['queue', 'before=2026-12-31T23:59:60Z', 'query.before'],
      ['queue', 'limit=0', 'query.limit'],
      ['queue', 'limit=501', 'query.limit'],
    ] as const) {
      const answer = await get<{ error: string; details: { errors: Array<{ field: string }> } }>(
        `/v1/campaigns/${campaign.id}/${path}`,
        query,
      );
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors[0]?.field, query).toBe(field);
    }
  });

  it.each([
    'analysis',
    'daily-stats',
    'step-funnel',
    'senders/breakdown',
    'personalization-quality',
    'ab-cohorts',
    'bookings',
    'queue',
  ])('%s: another organization’s campaign is CAMPAIGN_NOT_FOUND', async (path) => {
    const { campaign } = await seed();
    const other = await createTestApi(store(), { clock: { now: () => now } });
    const answer = await other.call<{ error: string }>('GET', `/v1/campaigns/${campaign.id}/${path}`);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('CAMPAIGN_NOT_FOUND');
    const unknown = await api.call<{ error: string }>('GET', `/v1/campaigns/${crypto.randomUUID()}/${path}`);
    expect(unknown.body.error).toBe('CAMPAIGN_NOT_FOUND');
    const malformed = await api.call<{ error: string }>('GET', `/v1/campaigns/not-a-uuid/${path}`);
    expect(malformed.body.error).toBe('NOT_FOUND');
  });

  it('a campaign without leads answers zero counts and null rates everywhere', async () => {
    api = await createTestApi(store(), { clock: { now: () => now } });
    const campaign = await activityBuilder(store(), api.organizationId, api.ownerId).campaign({ sequence: [] });
    const analysis = await get<{ analysis: { funnel: Record<string, unknown> } }>(
      `/v1/campaigns/${campaign.id}/analysis`,
    );
    expect(analysis.body.analysis.funnel).toEqual({
      contacted: 0,
      enrolled: 0,
      replied: 0,
      positive: 0,
      meetings: 0,
      reply_rate_pct: null,
      positive_rate_pct: null,
      meeting_rate_pct: null,
    });
    for (const [path, key] of [
      ['daily-stats', 'days'],
      ['step-funnel', 'steps'],
      ['senders/breakdown', 'senders'],
      ['personalization-quality', 'fields'],
      ['bookings', 'bookings'],
      ['queue', 'queue'],
    ] as const) {
      const answer = await get<Record<string, unknown>>(`/v1/campaigns/${campaign.id}/${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.body[key], path).toEqual([]);
    }
  });
});
