/**
 * Listing and registering a campaign's webhook: the ordered slot rules, secrets shown once,
 * URL checks, organization isolation. (Disable, secrets, deprecated paths, examples and
 * concurrency: webhook-manage.test.ts.)
 */
import { expect, it } from 'vitest';
import { createApiKey } from '../../src/seed/organizations.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import {
  type ErrorAnswer,
  type WebhookBody,
  hookA,
  hookB,
  hookC,
  listHooks,
  newCampaign,
  register,
  steppingClock,
} from '../support/webhook-api.ts';

describeBackends('webhooks: list and register', (store) => {
  let api: TestApi;
  let campaignId: string;
  const setup = async () => {
    api = await createTestApi(store(), { clock: steppingClock() });
    campaignId = await newCampaign(api);
  };
  const storedSecret = async (webhookId: string) => (await store().webhooks.get(campaignId, webhookId))?.secret;

  it('creates a webhook with a generated secret, shown once and never listed', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      success: true,
      message: 'Webhook activated successfully',
      created: true,
      replaced: false,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(await storedSecret(created.body.webhook_id)).toBe(created.body.secret);
    const list = await api.call<{ webhooks: WebhookBody[]; total: number }>(
      'GET',
      `/v1/campaigns/${campaignId}/webhooks`,
    );
    expect(list.body.total).toBe(1);
    expect(list.body.webhooks).toEqual([
      {
        webhook_id: created.body.webhook_id,
        webhook_url: hookA,
        enabled: true,
        has_secret: true,
        created_at: expect.stringMatching(/\+00:00$/),
        updated_at: expect.stringMatching(/\+00:00$/),
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
  });

  it('creates a webhook with the caller’s secret without echoing it', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA, secret: '9f2KxQ7pLm4Tz8Rv1Wc6Yb3Nh5Dj0Gs2' });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('secret');
    expect(await storedSecret(created.body.webhook_id)).toBe('9f2KxQ7pLm4Tz8Rv1Wc6Yb3Nh5Dj0Gs2');
  });

  it('1. answers DUPLICATE_WEBHOOK for the active URL, whatever replace says, in any spelling', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    for (const body of [
      { webhook_url: hookA },
      { webhook_url: hookA, replace: true },
      { webhook_url: hookA.replace('hooks.northwind', 'HOOKS.Northwind').replace('https', 'HTTPS') },
      { webhook_url: hookA.replace('.com/', '.com:443/') },
    ]) {
      const answer = await register(api, campaignId, body);
      expect(answer.status, JSON.stringify(body)).toBe(409);
      expect(answer.body).toMatchObject({
        error: 'DUPLICATE_WEBHOOK',
        details: { webhook_id: created.body.webhook_id },
      });
    }
    expect(await listHooks(api, campaignId)).toHaveLength(1);
  });

  it('2. answers WEBHOOK_SLOT_TAKEN for another URL, even one a disabled webhook has', async () => {
    await setup();
    const old = await register(api, campaignId, { webhook_url: hookB });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${old.body.webhook_id}`);
    const holder = await register(api, campaignId, { webhook_url: hookA });
    for (const url of [hookC, hookB]) {
      const answer = await register(api, campaignId, { webhook_url: url, replace: false });
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({
        error: 'WEBHOOK_SLOT_TAKEN',
        details: { webhook_id: holder.body.webhook_id },
      });
      expect(answer.body.message).toContain('replace: true');
    }
    const hooks = await listHooks(api, campaignId);
    expect(hooks.map((h) => [h.webhook_url, h.enabled])).toEqual([
      [hookB, false],
      [hookA, true],
    ]);
  });

  it('3. repoints the slot with replace: same webhook_id, new URL, new secret shown once', async () => {
    await setup();
    const holder = await register(api, campaignId, { webhook_url: hookA });
    const replaced = await register(api, campaignId, { webhook_url: hookB, replace: true });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      webhook_id: holder.body.webhook_id,
      created: false,
      replaced: true,
      message: `Webhook activated successfully (replaced ${hookA})`,
    });
    expect(replaced.body.secret).toMatch(/^whsec_/);
    expect(replaced.body.secret).not.toBe(holder.body.secret);
    expect(await storedSecret(holder.body.webhook_id)).toBe(replaced.body.secret);
    const hooks = await listHooks(api, campaignId);
    expect(hooks.map((h) => [h.webhook_id, h.webhook_url, h.enabled])).toEqual([[holder.body.webhook_id, hookB, true]]);
    const own = await register(api, campaignId, {
      webhook_url: hookC,
      replace: true,
      secret: 'Vt6Hq1Ze8Mb3Xk5Rn9Lc2Pw7Jd4Fs0Ga',
    });
    expect(own.status).toBe(200);
    expect(own.body).not.toHaveProperty('secret');
    expect(await storedSecret(holder.body.webhook_id)).toBe('Vt6Hq1Ze8Mb3Xk5Rn9Lc2Pw7Jd4Fs0Ga');
  });

  it('3. with replace, re-enables a disabled webhook that has the URL (secret kept) and disables the holder', async () => {
    await setup();
    const old = await register(api, campaignId, { webhook_url: hookB });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${old.body.webhook_id}`);
    const holder = await register(api, campaignId, { webhook_url: hookA });
    const swapped = await register(api, campaignId, {
      webhook_url: hookB,
      replace: true,
      secret: 'ignored-because-kept-0123456789',
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body).toMatchObject({ webhook_id: old.body.webhook_id, created: false, replaced: true });
    expect(swapped.body).not.toHaveProperty('secret');
    expect(await storedSecret(old.body.webhook_id)).toBe(old.body.secret);
    const hooks = await listHooks(api, campaignId);
    expect(hooks.map((h) => [h.webhook_id, h.enabled])).toEqual([
      [old.body.webhook_id, true],
      [holder.body.webhook_id, false],
    ]);
  });

  it('4. re-enables a disabled webhook with the same URL: 200, created false, secret kept, none answered', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${created.body.webhook_id}`);
    const again = await register(api, campaignId, { webhook_url: hookA, secret: 'a-different-secret-0123456789' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      success: true,
      message: 'Webhook activated successfully (re-enabled; existing signing secret kept)',
      webhook_id: created.body.webhook_id,
      created: false,
      replaced: false,
    });
    expect(await storedSecret(created.body.webhook_id)).toBe(created.body.secret);
    expect((await listHooks(api, campaignId)).map((h) => h.enabled)).toEqual([true]);
  });

  it('5. creates a second webhook once the slot is free', async () => {
    await setup();
    const first = await register(api, campaignId, { webhook_url: hookA });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${first.body.webhook_id}`);
    const second = await register(api, campaignId, { webhook_url: hookB, replace: true });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ created: true, replaced: false });
    expect(second.body.webhook_id).not.toBe(first.body.webhook_id);
  });

  it('answers INVALID_WEBHOOK_URL for non-HTTPS or non-public targets, VALIDATION_ERROR for non-URLs', async () => {
    await setup();
    for (const url of [
      'http://10.0.4.17/hooks',
      'http://hooks.example.com/x',
      'https://10.0.4.17/hooks',
      'https://2130706433/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://169.254.169.254/latest/meta-data/',
      'https://metadata.google.internal/',
      'https://localhost/x',
    ]) {
      const answer = await register(api, campaignId, { webhook_url: url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error, url).toBe('INVALID_WEBHOOK_URL');
      expect(answer.body.message).toContain(url);
    }
    // A URL with credentials is named without them: the answer does not send a password back.
    for (const [url, shown] of [
      ['https://user:s3cret-pw@hooks.example.com/x', 'https://hooks.example.com/x'],
      ['https://s3cret-pw@hooks.example.com/x?a=1', 'https://hooks.example.com/x?a=1'],
      ['http://user:s3cret-pw@10.0.4.17/hooks', 'http://10.0.4.17/hooks'],
      // Where the parser reads no credentials: a password with a `/` or `#`, no scheme.
      ['https://user:s3cret/pw@hooks.example.com/x', 'https://…@hooks.example.com/x'],
      ['https://user:12#s3cret@hooks.example.com/', 'https://…@hooks.example.com/'],
      ['user:s3cret-pw@hooks.example.com/x', 'user:…@hooks.example.com/x'],
    ]) {
      const answer = await register(api, campaignId, { webhook_url: url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error, url).toBe('INVALID_WEBHOOK_URL');
      expect(answer.body.message).toContain(`${shown} is not`);
      expect(JSON.stringify(answer.body)).not.toContain('s3cret');
    }
    for (const body of [
      { webhook_url: 'not a url' },
      { webhook_url: `https://hooks.example.com/${'x'.repeat(2000)}` },
      { webhook_url: hookA, secret: 'too-short' },
      { webhook_url: hookA, colour: 'red' },
      {},
    ]) {
      const answer = await register(api, campaignId, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
    expect(await listHooks(api, campaignId)).toEqual([]);
  });

  it('accepts http:// and loopback targets when the server allows insecure webhooks', async () => {
    const local = await createTestApi(store(), { config: { allowInsecureWebhooks: true } });
    const localCampaign = await newCampaign(local);
    const created = await register(local, localCampaign, { webhook_url: 'http://localhost:3000/hooks' });
    expect(created.status).toBe(201);
    const privateTarget = await register(local, localCampaign, { webhook_url: 'http://10.0.4.17/hooks' });
    expect(privateTarget.body.error).toBe('INVALID_WEBHOOK_URL');
  });

  it('lists oldest first and pages with limit 1-500', async () => {
    await setup();
    const first = await register(api, campaignId, { webhook_url: hookA });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${first.body.webhook_id}`);
    const second = await register(api, campaignId, { webhook_url: hookB });
    const page = await api.call<{ webhooks: WebhookBody[]; has_more: boolean; count: number; limit: number }>(
      'GET',
      `/v1/campaigns/${campaignId}/webhooks?limit=1&offset=1`,
    );
    expect(page.body).toMatchObject({ count: 1, limit: 1, has_more: false });
    expect(page.body.webhooks.map((h) => h.webhook_id)).toEqual([second.body.webhook_id]);
    expect((await listHooks(api, campaignId)).map((h) => h.webhook_id)).toEqual([
      first.body.webhook_id,
      second.body.webhook_id,
    ]);
    const defaults = await api.call<{ limit: number }>('GET', `/v1/campaigns/${campaignId}/webhooks`);
    expect(defaults.body.limit).toBe(100);
    for (const query of ['limit=0', 'limit=501', 'offset=-1']) {
      const bad = await api.call<ErrorAnswer>('GET', `/v1/campaigns/${campaignId}/webhooks?${query}`);
      expect([bad.status, bad.body.error], query).toEqual([400, 'VALIDATION_ERROR']);
    }
  });

  it('hides another organization’s campaign and needs campaigns:write to register', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    const other = await createTestApi(store());
    for (const [method, path, body] of [
      ['GET', `/v1/campaigns/${campaignId}/webhooks`, undefined],
      ['POST', `/v1/campaigns/${campaignId}/webhooks`, { webhook_url: hookB }],
    ] as const) {
      const answer = await other.call<ErrorAnswer>(method, path, { body });
      expect([answer.status, answer.body.error], `${method} ${path}`).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    }
    const unknown = await register(api, crypto.randomUUID(), { webhook_url: hookA });
    expect(unknown.body.error).toBe('CAMPAIGN_NOT_FOUND');
    const malformed = await api.call<ErrorAnswer>('GET', '/v1/campaigns/not-a-uuid/webhooks');
    expect([malformed.status, malformed.body.error]).toEqual([404, 'NOT_FOUND']);
    const reader = await createApiKey(store(), { organizationId: api.organizationId, scopes: ['campaigns:read'] });
    const listed = await api.call('GET', `/v1/campaigns/${campaignId}/webhooks`, { key: reader.key });
    expect(listed.status).toBe(200);
    const refused = await api.call<ErrorAnswer>('POST', `/v1/campaigns/${campaignId}/webhooks`, {
      key: reader.key,
      body: { webhook_url: hookB, replace: true },
    });
    expect([refused.status, refused.body.error]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect((await listHooks(api, campaignId)).map((h) => h.webhook_id)).toEqual([created.body.webhook_id]);
  });
});
