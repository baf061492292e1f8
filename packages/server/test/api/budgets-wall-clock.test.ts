/**
 * Budgets follow the wall clock (issue 10, item 4): advancing the sandbox clock moves the
 * campaign engine and deliveries, never a rate-limit window, an idempotency key's expiry or
 * an API key's expiry. Real time here is a fake clock that only the test moves.
 */
import { beforeEach, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import { createApiKey } from '../../src/seed/organizations.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('budgets keep real time in sandbox mode', (store) => {
  let realNow: number;
  let api: TestApi;

  beforeEach(async () => {
    realNow = Date.parse('2026-11-09T09:00:10.000Z');
    const clock = new SandboxClock({ now: () => new Date(realNow) });
    api = await createTestApi(store(), {
      clock,
      config: { sandbox: true },
      rateLimits: { perEndpoint: 3, total: 100 },
    });
  });

  const advance = (body: unknown) => api.call('POST', '/v1/sandbox/clock/advance', { body });

  it('keeps a spent rate limit spent when the sandbox clock advances, and refills it a real minute later', async () => {
    for (let i = 0; i < 3; i += 1) expect((await api.call('GET', '/v1/campaigns')).status).toBe(200);
    const limited = await api.call<{ error: string }>('GET', '/v1/campaigns');
    expect([limited.status, limited.body.error]).toEqual([429, 'RATE_LIMITED']);

    expect((await advance({ seconds: 120 })).status).toBe(200);
    const stillLimited = await api.call<{ error: string }>('GET', '/v1/campaigns');
    expect([stillLimited.status, stillLimited.body.error]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(stillLimited.headers.get('retry-after'))).toBeLessThanOrEqual(50);

    realNow += 60_000;
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(200);
  });

  it('counts a request stamped before a minute boundary in the later minute, never giving that minute its budget back', async () => {
    // A request reads the time when it starts and is counted after authenticating: one that
    // started at 09:00:59.999 can be counted after the new minute's requests. Here the clock
    // steps back for it.
    realNow = Date.parse('2026-11-09T09:01:00.005Z');
    for (let i = 0; i < 3; i += 1) expect((await api.call('GET', '/v1/campaigns')).status).toBe(200);
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(429);
    realNow = Date.parse('2026-11-09T09:00:59.999Z');
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(429);
    realNow = Date.parse('2026-11-09T09:01:00.010Z');
    for (let i = 0; i < 3; i += 1) expect((await api.call('GET', '/v1/campaigns')).status).toBe(429);
    realNow = Date.parse('2026-11-09T09:02:00.000Z');
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(200);
  });

  it('starts the budget again when real time steps back more than a minute, rather than staying spent', async () => {
    realNow = Date.parse('2026-11-09T09:10:00.000Z');
    for (let i = 0; i < 3; i += 1) expect((await api.call('GET', '/v1/campaigns')).status).toBe(200);
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(429);
    // The machine's clock is set back five minutes (an NTP step): a new window, not 09:10's.
    realNow = Date.parse('2026-11-09T09:05:00.000Z');
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(200);
  });

  it('replays an idempotent request after the sandbox clock passes its key expiry', async () => {
    const create = () =>
      api.call<{ campaign: { id: string } }>('POST', '/v1/campaigns', {
        body: { name: 'Once' },
        headers: { 'Idempotency-Key': 'wall-clock-key-1' },
      });
    const first = await create();
    expect(first.status).toBe(201);
    expect((await advance({ days: 3 })).status).toBe(200);
    const again = await create();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.campaign.id).toBe(first.body.campaign.id);
  });

  it('keeps an API key valid until its real expiry, whatever the sandbox clock says', async () => {
    const { key } = await createApiKey(api.store, {
      organizationId: api.organizationId,
      expiresAt: new Date(realNow + 3_600_000).toISOString(),
    });
    expect((await advance({ days: 30 })).status).toBe(200);
    expect((await api.call('GET', '/v1/campaigns', { key })).status).toBe(200);
    realNow += 3_600_001;
    const expired = await api.call<{ error: string }>('GET', '/v1/campaigns', { key });
    expect([expired.status, expired.body.error]).toEqual([401, 'API_KEY_EXPIRED']);
  });
});
