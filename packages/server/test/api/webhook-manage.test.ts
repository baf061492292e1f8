/**
 * Managing webhooks: disable (and the deprecated deactivate), the deprecated activate, the
 * signing secret, the example payloads on both paths, and registrations under concurrency
 * (one slot, the database's unique indexes, nothing half-written).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import {
  type ErrorAnswer,
  type Registration,
  type WebhookBody,
  hookA,
  hookB,
  listHooks,
  newCampaign,
  register,
  steppingClock,
} from '../support/webhook-api.ts';

const examplesSource = fileURLToPath(new URL('../../../../openapi/paths/webhooks_examples.yaml', import.meta.url));

describeBackends('webhooks: manage', (store) => {
  let api: TestApi;
  let campaignId: string;
  const setup = async (on: Store = store()) => {
    api = await createTestApi(on, { clock: steppingClock() });
    campaignId = await newCampaign(api);
  };
  const storedSecret = async (webhookId: string) => (await store().webhooks.get(campaignId, webhookId))?.secret;

  it('disables a webhook, keeping its configuration; disabling again changes nothing', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    const path = `/v1/campaigns/${campaignId}/webhooks/${created.body.webhook_id}`;
    const disabled = await api.call<{ message: string; webhook: WebhookBody }>('DELETE', path);
    expect(disabled.status).toBe(200);
    expect(disabled.body.webhook).toMatchObject({ webhook_url: hookA, enabled: false, has_secret: true });
    expect(disabled.body.webhook.updated_at).not.toBe(disabled.body.webhook.created_at);
    expect(await storedSecret(created.body.webhook_id)).toBe(created.body.secret);
    const again = await api.call<{ webhook: WebhookBody }>('DELETE', path);
    expect(again.status).toBe(200);
    expect(again.body.webhook).toEqual(disabled.body.webhook);
    expect((await listHooks(api, campaignId)).map((h) => h.enabled)).toEqual([false]);
  });

  it('answers WEBHOOK_NOT_FOUND, CAMPAIGN_NOT_FOUND and NOT_FOUND on disable and set-secret', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    const otherCampaign = await newCampaign(api, 'EMEA Expansion');
    const other = await createTestApi(store());
    const cases: Array<[TestApi, string, number, string]> = [
      [api, `/v1/campaigns/${campaignId}/webhooks/${crypto.randomUUID()}`, 404, 'WEBHOOK_NOT_FOUND'],
      [api, `/v1/campaigns/${otherCampaign}/webhooks/${created.body.webhook_id}`, 404, 'WEBHOOK_NOT_FOUND'],
      [api, `/v1/campaigns/${crypto.randomUUID()}/webhooks/${created.body.webhook_id}`, 404, 'CAMPAIGN_NOT_FOUND'],
      [other, `/v1/campaigns/${campaignId}/webhooks/${created.body.webhook_id}`, 404, 'CAMPAIGN_NOT_FOUND'],
      [api, `/v1/campaigns/${campaignId}/webhooks/not-a-uuid`, 404, 'NOT_FOUND'],
    ];
    for (const [caller, path, status, code] of cases) {
      for (const [method, suffix] of [
        ['DELETE', ''],
        ['POST', '/secret'],
      ] as const) {
        const answer = await caller.call<ErrorAnswer>(method, `${path}${suffix}`);
        expect([answer.status, answer.body.error], `${method} ${path}${suffix}`).toEqual([status, code]);
      }
    }
    expect((await listHooks(api, campaignId)).map((h) => h.enabled)).toEqual([true]);
    expect(await storedSecret(created.body.webhook_id)).toBe(created.body.secret);
  });

  it('sets or rotates the secret: generated (shown once) without one, the caller’s otherwise', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    const path = `/v1/campaigns/${campaignId}/webhooks/${created.body.webhook_id}/secret`;
    const seen = new Set<string>([created.body.secret ?? '']);
    for (const options of [{}, { body: {} }, { body: { secret: null } }]) {
      const rotated = await api.call<{ message: string; webhook_id: string; secret: string }>('POST', path, options);
      expect(rotated.status).toBe(200);
      expect(rotated.body.webhook_id).toBe(created.body.webhook_id);
      expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(rotated.body.message).toContain('not shown again');
      expect(seen.has(rotated.body.secret)).toBe(false);
      seen.add(rotated.body.secret);
      expect(await storedSecret(created.body.webhook_id)).toBe(rotated.body.secret);
    }
    const own = await api.call('POST', path, { body: { secret: 'Qe3Wn8Ht1Kz6Mb4Vr9Lp2Xc7Jf5Ds0Ya' } });
    expect(own.body).toEqual({ success: true, message: 'Webhook secret updated', webhook_id: created.body.webhook_id });
    expect(await storedSecret(created.body.webhook_id)).toBe('Qe3Wn8Ht1Kz6Mb4Vr9Lp2Xc7Jf5Ds0Ya');
    const short = await api.call<ErrorAnswer>('POST', path, { body: { secret: 'short' } });
    expect([short.status, short.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    expect(await storedSecret(created.body.webhook_id)).toBe('Qe3Wn8Ht1Kz6Mb4Vr9Lp2Xc7Jf5Ds0Ya');
  });

  it('sets the secret of a disabled webhook, and re-enabling keeps it', async () => {
    await setup();
    const created = await register(api, campaignId, { webhook_url: hookA });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${created.body.webhook_id}`);
    await api.call('POST', `/v1/campaigns/${campaignId}/webhooks/${created.body.webhook_id}/secret`, {
      body: { secret: 'set-while-disabled-0123456789' },
    });
    const again = await register(api, campaignId, { webhook_url: hookA });
    expect(again.status).toBe(200);
    expect(await storedSecret(created.body.webhook_id)).toBe('set-while-disabled-0123456789');
  });

  it('keeps the deprecated activate and deactivate working, with Deprecation and Link on every answer', async () => {
    await setup();
    const activated = await api.call<Registration>('POST', `/v1/campaigns/${campaignId}/webhook/activate`, {
      body: { webhook_url: hookA },
    });
    expect(activated.status).toBe(201);
    expect(activated.body).toMatchObject({ created: true, replaced: false });
    expect(activated.headers.get('deprecation')).toBe('true');
    expect(activated.headers.get('link')).toBe(`</v1/campaigns/${campaignId}/webhooks>; rel="successor-version"`);
    const taken = await api.call<ErrorAnswer>('POST', `/v1/campaigns/${campaignId}/webhook/activate`, {
      body: { webhook_url: hookB },
    });
    expect([taken.status, taken.body.error]).toEqual([409, 'WEBHOOK_SLOT_TAKEN']);
    expect(taken.headers.get('deprecation')).toBe('true');
    const deactivatePath = `/v1/campaigns/${campaignId}/webhook/deactivate`;
    const deactivated = await api.call('POST', deactivatePath, { body: { webhook_id: activated.body.webhook_id } });
    expect(deactivated.body).toEqual({ success: true, message: 'Webhook deactivated successfully' });
    expect(deactivated.headers.get('link')).toBe(
      `</v1/campaigns/${campaignId}/webhooks/${activated.body.webhook_id}>; rel="successor-version"`,
    );
    expect((await listHooks(api, campaignId)).map((h) => h.enabled)).toEqual([false]);
    const reEnabled = await api.call<Registration>('POST', `/v1/campaigns/${campaignId}/webhook/activate`, {
      body: { webhook_url: hookA },
    });
    expect([reEnabled.status, reEnabled.body.created, reEnabled.body.secret]).toEqual([200, false, undefined]);
    const unknown = await api.call<ErrorAnswer>('POST', deactivatePath, { body: { webhook_id: crypto.randomUUID() } });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    expect(unknown.headers.get('deprecation')).toBe('true');
    const malformed = await api.call<ErrorAnswer>('POST', deactivatePath, { body: { webhook_id: 'nope' } });
    expect([malformed.status, malformed.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    const foreign = await (
      await createTestApi(store())
    ).call<ErrorAnswer>('POST', deactivatePath, {
      body: { webhook_id: activated.body.webhook_id },
    });
    expect([foreign.status, foreign.body.error]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    expect((await listHooks(api, campaignId)).map((h) => h.enabled)).toEqual([true]);
  });

  it('returns the document’s example payloads on both paths', async () => {
    await setup();
    const source = parse(readFileSync(examplesSource, 'utf8')) as {
      get: {
        responses: { '200': { content: { 'application/json': { examples: Record<string, { value: unknown }> } } } };
      };
    };
    const documented = Object.values(source.get.responses['200'].content['application/json'].examples)[0]?.value;
    const current = await api.call('GET', '/v1/webhooks/examples');
    expect(current.status).toBe(200);
    expect(current.body).toEqual(documented);
    expect(current.headers.get('deprecation')).toBeNull();
    const legacy = await api.call('GET', '/v1/campaigns/webhook/examples');
    expect(legacy.body).toEqual(documented);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.headers.get('link')).toBe('</v1/webhooks/examples>; rel="successor-version"');
  });

  it('gives one slot under concurrent registrations: one 201, the rest the documented 409', async () => {
    await setup();
    const same = await Promise.all(Array.from({ length: 8 }, () => register(api, campaignId, { webhook_url: hookA })));
    expect(same.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = same.find((a) => a.status === 201)?.body.webhook_id;
    for (const answer of same.filter((a) => a.status === 409)) {
      expect(answer.body).toMatchObject({ error: 'DUPLICATE_WEBHOOK', details: { webhook_id: winner } });
    }
    const other = await newCampaign(api, 'EMEA Expansion');
    const urls = Array.from({ length: 8 }, (_, i) => `https://hooks.example.com/racer-${i}`);
    const racing = await Promise.all(urls.map((url) => register(api, other, { webhook_url: url })));
    expect(racing.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const holder = racing.find((a) => a.status === 201)?.body.webhook_id;
    for (const answer of racing.filter((a) => a.status === 409)) {
      expect(answer.body).toMatchObject({ error: 'WEBHOOK_SLOT_TAKEN', details: { webhook_id: holder } });
    }
    const replacing = await Promise.all(urls.map((url) => register(api, other, { webhook_url: url, replace: true })));
    // Each repoints the slot in turn; the URL holding it when its turn comes, if any, is a
    // duplicate (which one depends on the order the requests run in).
    const duplicates = replacing.filter((a) => a.status === 409);
    expect(replacing.filter((a) => a.status === 200)).toHaveLength(8 - duplicates.length);
    expect(duplicates.length).toBeLessThanOrEqual(1);
    for (const answer of duplicates) expect(answer.body.error).toBe('DUPLICATE_WEBHOOK');
    const hooks = await listHooks(api, other);
    expect(hooks.filter((h) => h.enabled)).toHaveLength(1);
    expect(hooks).toHaveLength(1);
  });

  it('turns a unique violation from a concurrent request into the documented 409', async () => {
    // The first attempt reads a stale campaign (as if a concurrent request had not yet
    // committed), so its insert collides with the database's unique indexes.
    const stale = { reads: 0 };
    const base = store();
    const hideOnce = (tx: Store): Store => ({
      ...tx,
      webhooks: {
        ...tx.webhooks,
        listEnabled: async (id) => (stale.reads > 0 ? [] : tx.webhooks.listEnabled(id)),
        findByUrl: async (id, url) => (stale.reads-- > 0 ? null : tx.webhooks.findByUrl(id, url)),
      },
    });
    await setup({ ...base, transaction: (work) => base.transaction((tx) => work(hideOnce(tx))) });
    const created = await register(api, campaignId, { webhook_url: hookA });
    stale.reads = 1;
    const duplicate = await register(api, campaignId, { webhook_url: hookA });
    expect(duplicate.body).toMatchObject({
      error: 'DUPLICATE_WEBHOOK',
      details: { webhook_id: created.body.webhook_id },
    });
    stale.reads = 1;
    const taken = await register(api, campaignId, { webhook_url: hookB });
    expect(taken.body).toMatchObject({ error: 'WEBHOOK_SLOT_TAKEN', details: { webhook_id: created.body.webhook_id } });
    expect((await listHooks(api, campaignId)).map((h) => h.webhook_url)).toEqual([hookA]);
  });

  it('leaves nothing half-written when a swap fails midway', async () => {
    const failing = { on: false };
    const base = store();
    const failEnable = (tx: Store): Store => ({
      ...tx,
      webhooks: {
        ...tx.webhooks,
        update: async (campaign, id, patch) => {
          if (failing.on && patch.enabled === true) throw new Error('disk full');
          return tx.webhooks.update(campaign, id, patch);
        },
      },
    });
    await setup({ ...base, transaction: (work) => base.transaction((tx) => work(failEnable(tx))) });
    const old = await register(api, campaignId, { webhook_url: hookB });
    await api.call('DELETE', `/v1/campaigns/${campaignId}/webhooks/${old.body.webhook_id}`);
    const holder = await register(api, campaignId, { webhook_url: hookA });
    failing.on = true;
    const failed = await register(api, campaignId, { webhook_url: hookB, replace: true });
    expect([failed.status, failed.body.error]).toEqual([500, 'INTERNAL_ERROR']);
    expect((await listHooks(api, campaignId)).map((h) => [h.webhook_id, h.enabled])).toEqual([
      [old.body.webhook_id, false],
      [holder.body.webhook_id, true],
    ]);
  });
});
