/**
 * Tag Webhooks: list, register (webhook-register.ts), disable, set the secret, the deprecated
 * activate and deactivate (same behaviour as their successors; the app adds `Deprecation`
 * and `Link`), and the example payloads on both paths.
 */
import { generateWebhookSecret } from '../domain/webhook-secret.ts';
import { ApiError } from '../http/api-error.ts';
import type { Schemas } from '../openapi/types.ts';
import type { WebhookRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { webhookView } from '../views/webhook.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';
import { webhookExamples } from './webhook-examples.ts';
import { registerWebhook } from './webhook-register.ts';

export const webhookHandlers: PartialHandlers = {
  async listWebhooks({ path, query, auth }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const page = pageRequest(query, 100);
    const result = await store.webhooks.list(campaign.id, page);
    const webhooks = { ...result, items: result.items.map(webhookView) };
    return { status: 200, body: pageEnvelope('webhooks', webhooks, page, 'Webhooks retrieved') };
  },

  async createWebhook({ path, body, auth, now }, services) {
    return registerWebhook({ organizationId: auth.organization.id, campaignId: path.campaign_id, body, now }, services);
  },

  async activateWebhook({ path, body, auth, now }, services) {
    return registerWebhook({ organizationId: auth.organization.id, campaignId: path.campaign_id, body, now }, services);
  },

  async disableWebhook({ path, auth, now }, { store }) {
    const webhook = await disable(store, auth.organization.id, path.campaign_id, path.webhook_id, now);
    return {
      status: 200,
      body: {
        success: true,
        message: 'Webhook disabled successfully; its configuration is kept and registering the same URL re-enables it.',
        webhook: webhookView(webhook),
      },
    };
  },

  async deactivateWebhook({ path, body, auth, now }, { store }) {
    await disable(store, auth.organization.id, path.campaign_id, body.webhook_id, now);
    return { status: 200, body: { success: true, message: 'Webhook deactivated successfully' } };
  },

  async setWebhookSecret({ path, body, auth, now }, { store }) {
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const webhook = await findWebhook(store, campaign.id, path.webhook_id);
    // The body is optional: none, `{}` and `secret: null` all ask for a generated secret.
    const given = (body as Schemas['WebhookSecretInput'] | undefined)?.secret ?? null;
    const generated = given === null ? generateWebhookSecret() : null;
    await store.webhooks.update(campaign.id, webhook.id, { secret: given ?? generated, updated_at: now.toISOString() });
    return {
      status: 200,
      body: generated
        ? {
            success: true,
            message: 'Webhook secret updated; store the generated secret now, it is not shown again.',
            webhook_id: webhook.id,
            secret: generated,
          }
        : { success: true, message: 'Webhook secret updated', webhook_id: webhook.id },
    };
  },

  async listWebhookExamples() {
    return { status: 200, body: { success: true, examples: webhookExamples() } };
  },

  async listWebhookExamplesLegacy() {
    return { status: 200, body: { success: true, examples: webhookExamples() } };
  },
};

/** The webhook of the campaign, or `404 WEBHOOK_NOT_FOUND` (also for another campaign's webhook). */
async function findWebhook(store: Store, campaignId: string, webhookId: string): Promise<WebhookRecord> {
  const webhook = await store.webhooks.get(campaignId, webhookId);
  if (!webhook) {
    throw new ApiError(404, 'WEBHOOK_NOT_FOUND', `Webhook ${webhookId} not found on campaign ${campaignId}.`);
  }
  return webhook;
}

/** Disables the webhook, keeping its URL and secret; an already disabled webhook is left as it is. */
async function disable(
  store: Store,
  organizationId: string,
  campaignId: string,
  webhookId: string,
  now: Date,
): Promise<WebhookRecord> {
  const campaign = await findCampaign(store, organizationId, campaignId);
  const webhook = await findWebhook(store, campaign.id, webhookId);
  if (!webhook.enabled) return webhook;
  const disabled = await store.webhooks.update(campaign.id, webhook.id, {
    enabled: false,
    updated_at: now.toISOString(),
  });
  return disabled ?? webhook;
}
