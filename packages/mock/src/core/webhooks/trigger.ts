/**
 * `mock.webhooks.trigger()`: a signed `prospect_response`, as the service would POST it to
 * a campaign's webhook, for testing a receiver: returned as a Fetch `Request` to pass to the
 * handler under test, or delivered to a URL. The event is the server's own (`event.ts`); the
 * trigger picks the lead, merges the test's overrides and signs.
 */
import { createSignedRequest } from '@ocs/sdk/webhooks';
import { type MemoryStore, prospectResponseKey } from '@ocs/server';
import type { ProspectResponseEvent } from '../api-types.ts';
import type { Clock } from '../options.ts';
import { isPlainObject, optionsOf, shown } from '../option-values.ts';
import { buildEvent, type Channel, type EventSource } from './event.ts';

type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface TriggerOptions {
  /** The campaign the reply belongs to. Default: the lead's campaign, else the first seeded campaign with leads. */
  campaignId?: string;
  /** The lead who replied (enrolled in the campaign). Default: the campaign's first lead. */
  leadId?: string;
  /** The webhook's signing secret: the `X-Signature-256` header is its HMAC-SHA256 of the body. */
  secret: string;
  /**
   * Deliver the event here (`POST`, redirects not followed, as the service does) and return
   * the receiver's answer. Without it, nothing is sent: pass `request` to the receiver.
   */
  url?: string | URL;
  /** Default: `email` when the campaign sends email and the lead has an address, else `linkedin`. */
  channel?: Channel;
  /**
   * Fields to change (merged deeply): `{ ai_response: { sentiment: 'negative' } }`,
   * `{ prospect_message: 'Not interested.' }`. A `prospect_message` (and `channel`) is the
   * reply the classifier and agent read, so `ai_response` follows it; other fields replace
   * what they built. `idempotency_key` is computed after the merge unless given.
   */
  overrides?: DeepPartial<ProspectResponseEvent>;
}

export interface TriggeredEvent {
  /** The event, as the receiver will parse it. */
  event: ProspectResponseEvent;
  /** The exact bytes signed and sent. */
  body: string;
  /** The `X-Signature-256` value: `sha256=<hex>`. */
  signature: string;
  /**
   * The signed `POST`, unread: `await receiver(request)`. Its URL is `url`, else the
   * campaign's enabled webhook, else `https://receiver.ocs.test/webhooks`.
   */
  request: Request;
  /** The receiver's answer, when `url` was given. */
  response: Response | undefined;
}

export interface OcsMockWebhooks {
  /**
   * Builds a `prospect_response` from the mock's data, signs it with `secret`, and returns
   * it as a Fetch `Request` (or delivers it to `url`).
   *
   * @example
   * const { request } = await mock.webhooks.trigger({ secret: 'whsec_test_0123456789abcdef' });
   * const response = await app.fetch(request); // the receiver under test
   */
  trigger(options: TriggerOptions): Promise<TriggeredEvent>;
}

export interface WebhookContext {
  store: MemoryStore;
  clock: Clock;
  organizationId: string;
  /** Campaign IDs in seeded order, for the default choice. */
  campaignIds: () => readonly string[];
}

const defaultReceiver = 'https://receiver.ocs.test/webhooks';

const triggerOptions = ['campaignId', 'leadId', 'secret', 'url', 'channel', 'overrides'];

export function mockWebhooks(context: WebhookContext): OcsMockWebhooks {
  return {
    async trigger(options) {
      if (typeof options?.secret !== 'string' || options.secret === '') {
        throw new TypeError("@ocs/mock: webhooks.trigger needs the webhook's signing secret: { secret }.");
      }
      const given = optionsOf(options, 'webhooks.trigger', triggerOptions);
      // The option picks the reply's channel; `overrides.channel` may still set any value, to
      // test how a receiver treats one it does not know.
      if (given.channel !== undefined && given.channel !== 'email' && given.channel !== 'linkedin') {
        throw new TypeError(
          `@ocs/mock: webhooks.trigger.channel must be 'email' or 'linkedin', got ${shown(given.channel)}.`,
        );
      }
      const source = await findSource(context, options);
      const overrides = options.overrides ?? {};
      const built = await buildEvent(context.store, source, context.clock.now(), {
        channel: overrides.channel ?? options.channel,
        message: overrides.prospect_message,
      });
      const event = merge(built, overrides) as ProspectResponseEvent;
      if (!overrides.idempotency_key) {
        event.idempotency_key = await prospectResponseKey({
          sequenceLeadId: event.sequence_lead_id,
          campaignId: source.campaignId,
          channel: event.channel,
          prospectMessage: event.prospect_message ?? null,
        });
      }
      const body = JSON.stringify(event);
      const target = options.url ?? (await webhookUrl(context.store, source.campaignId)) ?? defaultReceiver;
      const request = await createSignedRequest(target, body, options.secret);
      const signature = request.headers.get('X-Signature-256') ?? '';
      const response = options.url ? await fetch(request.clone(), { redirect: 'manual' }) : undefined;
      return { event, body, signature, request, response };
    },
  };
}

async function findSource(context: WebhookContext, options: TriggerOptions): Promise<EventSource> {
  const { store, organizationId } = context;
  const source = (campaignId: string, leadId: string) => ({ organizationId, campaignId, leadId });
  if (options.campaignId && options.leadId) return source(options.campaignId, options.leadId);
  if (options.leadId) {
    const enrolment = (await store.enrolments.listForLead(options.leadId)).find((e) => e.removed_at === null);
    if (!enrolment) {
      const known = (await store.leads.get(organizationId, options.leadId)) !== null;
      throw new Error(
        known
          ? `@ocs/mock: lead ${options.leadId} is enrolled in no campaign; pass campaignId.`
          : `@ocs/mock: the mock has no lead ${options.leadId}; pass the ID of one of its leads (mock.data.leads).`,
      );
    }
    return source(enrolment.campaign_id, options.leadId);
  }
  for (const campaignId of options.campaignId ? [options.campaignId] : context.campaignIds()) {
    const [lead] = await store.enrolments.listLeadsForCampaign(campaignId);
    if (lead) return source(campaignId, lead.id);
  }
  throw new Error(
    options.campaignId
      ? `@ocs/mock: campaign ${options.campaignId} has no enrolled lead; enrol one or pass leadId.`
      : '@ocs/mock: no campaign has an enrolled lead; pass campaignId and leadId.',
  );
}

async function webhookUrl(store: MemoryStore, campaignId: string): Promise<string | undefined> {
  const [webhook] = await store.webhooks.listEnabled(campaignId);
  return webhook?.url;
}

function merge(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(target) || !isPlainObject(patch)) return patch === undefined ? target : patch;
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) result[key] = merge(result[key], value);
  return result;
}
