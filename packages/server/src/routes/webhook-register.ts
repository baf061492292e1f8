/**
 * `POST /campaigns/{campaign_id}/webhooks` and its deprecated twin `POST .../webhook/activate`:
 * register, re-enable or replace the campaign's one response webhook.
 *
 * The decision (domain/webhook-slot.ts) and the writes run in one transaction that first locks
 * the campaign row, so concurrent registrations for a campaign take turns and each sees what
 * the previous one committed. The database's unique indexes (one enabled webhook per
 * campaign, one row per URL) back this up: should a write still collide with a concurrent
 * request, nothing is half-written and the registration is decided again on fresh reads,
 * which answers the documented 409 (or does what a sequential request would have done).
 */
import { generateWebhookSecret } from '../domain/webhook-secret.ts';
import { decideRegistration } from '../domain/webhook-slot.ts';
import { checkWebhookUrl, urlForMessage } from '../domain/webhook-url.ts';
import { ApiError } from '../http/api-error.ts';
import type { Schemas } from '../openapi/types.ts';
import type { AppServices } from '../services.ts';
import { UniqueViolation } from '../store/errors.ts';
import type { Store } from '../store/types.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { newId } from '../domain/ids.ts';

type Registration = Schemas['WebhookRegistration'];

export interface RegisterInput {
  organizationId: string;
  campaignId: string;
  body: Schemas['WebhookInput'];
  now: Date;
}

/** How many times a registration is decided again after colliding with a concurrent one. */
const maxAttempts = 3;

export async function registerWebhook(
  input: RegisterInput,
  services: AppServices,
): Promise<{ status: 201; body: Registration } | { status: 200; body: Registration }> {
  const checked = checkWebhookUrl(input.body.webhook_url, { allowInsecure: services.config.allowInsecureWebhooks });
  if (!checked.ok) {
    throw new ApiError(
      400,
      'INVALID_WEBHOOK_URL',
      `webhook_url must be an HTTPS URL resolving to a public address: ${urlForMessage(input.body.webhook_url)} is not (${checked.reason}).`,
    );
  }
  const url = checked.url;
  const refused = await services.checkWebhookHost?.(new URL(url).hostname);
  if (refused) {
    throw new ApiError(
      400,
      'INVALID_WEBHOOK_URL',
      `webhook_url must be an HTTPS URL resolving to a public address: ${urlForMessage(input.body.webhook_url)} is not (${refused}).`,
    );
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await services.store.transaction((tx) => registerOnce(tx, input, url));
    } catch (error) {
      if (!(error instanceof UniqueViolation)) throw error;
      if (attempt >= maxAttempts) throw await conflictAnswer(services.store, input, url, error);
    }
  }
}

async function registerOnce(
  tx: Store,
  input: RegisterInput,
  url: string,
): Promise<{ status: 201; body: Registration } | { status: 200; body: Registration }> {
  const campaign = await findCampaign(tx, input.organizationId, input.campaignId, { forUpdate: true });
  const [holder = null] = await tx.webhooks.listEnabled(campaign.id);
  const sameUrl = await tx.webhooks.findByUrl(campaign.id, url);
  const decision = decideRegistration({ holder, sameUrl, replace: input.body.replace === true });
  const at = input.now.toISOString();
  switch (decision.kind) {
    case 'duplicate':
      throw duplicate(url, decision.webhookId);
    case 'slot_taken':
      throw slotTaken(holder?.url ?? 'another URL', decision.webhookId);
    case 'repoint': {
      // The holder keeps its ID; a new URL gets a new secret (the caller's, or generated).
      const generated = input.body.secret ? null : generateWebhookSecret();
      await tx.webhooks.update(campaign.id, decision.holder.id, {
        url,
        secret: input.body.secret ?? generated,
        updated_at: at,
      });
      return ok(200, {
        message: `Webhook activated successfully (replaced ${decision.holder.url})`,
        webhook_id: decision.holder.id,
        created: false,
        replaced: true,
        ...(generated ? { secret: generated } : {}),
      });
    }
    case 'swap':
      // Free the slot first: the database allows one enabled webhook per campaign.
      await tx.webhooks.update(campaign.id, decision.holder.id, { enabled: false, updated_at: at });
      await tx.webhooks.update(campaign.id, decision.target.id, { enabled: true, updated_at: at });
      return ok(200, {
        message: `Webhook activated successfully (replaced ${decision.holder.url}; re-enabled, existing signing secret kept)`,
        webhook_id: decision.target.id,
        created: false,
        replaced: true,
      });
    case 're_enable':
      await tx.webhooks.update(campaign.id, decision.target.id, { enabled: true, updated_at: at });
      return ok(200, {
        message: 'Webhook activated successfully (re-enabled; existing signing secret kept)',
        webhook_id: decision.target.id,
        created: false,
        replaced: false,
      });
    case 'create': {
      const generated = input.body.secret ? null : generateWebhookSecret();
      const id = newId();
      await tx.webhooks.insert({
        id,
        organization_id: campaign.organization_id,
        campaign_id: campaign.id,
        url,
        enabled: true,
        secret: input.body.secret ?? generated,
        created_at: at,
        updated_at: at,
      });
      return ok(201, {
        message: 'Webhook activated successfully',
        webhook_id: id,
        created: true,
        replaced: false,
        ...(generated ? { secret: generated } : {}),
      });
    }
  }
}

function ok<S extends 200 | 201>(status: S, body: Omit<Registration, 'success'>): { status: S; body: Registration } {
  return { status, body: { success: true, ...body } };
}

function duplicate(url: string, webhookId: string): ApiError {
  return new ApiError(409, 'DUPLICATE_WEBHOOK', `${url} is already active on this campaign.`, {
    details: { webhook_id: webhookId },
  });
}

function slotTaken(holderUrl: string, webhookId: string): ApiError {
  return new ApiError(
    409,
    'WEBHOOK_SLOT_TAKEN',
    `The campaign's webhook slot is held by ${holderUrl}. Send replace: true to repoint it.`,
    { details: { webhook_id: webhookId } },
  );
}

/**
 * Registrations kept colliding: answer with what the campaign has now, as the first two
 * rules would, or give up with the collision itself (a 500) when neither applies.
 */
async function conflictAnswer(store: Store, input: RegisterInput, url: string, error: UniqueViolation) {
  const [holder] = await store.webhooks.listEnabled(input.campaignId);
  if (holder?.url === url) return duplicate(url, holder.id);
  if (holder) return slotTaken(holder.url, holder.id);
  return error;
}
