/**
 * Outbox fixtures: a campaign with a sequence lead, webhooks on it, and `prospect_response`
 * deliveries as the reply code enqueues them (the body is ready bytes: the payload builder's
 * work is not under test here).
 */
import type {
  CampaignRecord,
  DeliveryRecord,
  EnrolmentRecord,
  LeadRecord,
  WebhookRecord,
} from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import { createOrganization } from '../../src/seed/organizations.ts';
import { activityBuilder } from './activity.ts';

/** 2026-11-02 09:00 UTC: when the fixtures' replies arrive. */
export const replyTime = new Date('2026-11-02T09:00:00.000Z');
export const minutes = (n: number) => n * 60_000;
export const at = (offsetMs: number) => new Date(replyTime.getTime() + offsetMs).toISOString();

/**
 * A claim `fromMs` after the reply, held for `lengthMs`, off the sandbox: the schedule's clock
 * and real time agree, so the lease's end is also when the delivery is due again.
 */
export const lease = (fromMs: number, lengthMs = minutes(2)) => ({
  now: at(fromMs),
  realNow: at(fromMs),
  leaseUntil: at(fromMs + lengthMs),
  dueAgainAt: at(fromMs + lengthMs),
});

export interface DeliveryFixtures {
  store: Store;
  campaign: CampaignRecord;
  enrolment: EnrolmentRecord & { lead: LeadRecord };
  /** A webhook of the fixtures' campaign (enabled, with a secret, unless overridden). */
  webhook(overrides?: Partial<WebhookRecord>): Promise<WebhookRecord>;
  /** A pending delivery due at `replyTime`, not yet enqueued. */
  delivery(overrides?: Partial<DeliveryRecord>): DeliveryRecord;
  enqueue(overrides?: Partial<DeliveryRecord>): Promise<DeliveryRecord>;
}

/** A random 64-hex key, like the SHA-256 the payload builder makes. */
export function randomKey(): string {
  return (crypto.randomUUID() + crypto.randomUUID()).replaceAll('-', '').padEnd(64, '0').slice(0, 64);
}

/** A body as the payload builder writes it; non-ASCII text, so that "the same bytes" means bytes. */
export function eventBody(key: string): string {
  return JSON.stringify({
    event: 'prospect_response',
    idempotency_key: key,
    timestamp: '2026-11-02T09:00:00.000000+00:00',
    channel: 'email',
    prospect_message: 'Merci — très intéressé, parlons jeudi 👋',
  });
}

export async function deliveryFixtures(store: Store): Promise<DeliveryFixtures> {
  const ownerId = crypto.randomUUID();
  const organization = await createOrganization(store, {
    name: 'Delivery Org',
    members: [{ id: ownerId, email: 'owner@example.com', name: 'Owner', role: 'owner' }],
  });
  const builder = activityBuilder(store, organization.id, ownerId);
  const campaign = await builder.campaign();
  const enrolment = await builder.enrol(campaign, { status: 'active', variation: 'a' });
  const delivery = (overrides: Partial<DeliveryRecord> = {}): DeliveryRecord => {
    const key = overrides.idempotency_key ?? randomKey();
    return {
      id: crypto.randomUUID(),
      organization_id: organization.id,
      campaign_id: campaign.id,
      enrolment_id: enrolment.id,
      lead_id: enrolment.lead_id,
      channel: 'email',
      idempotency_key: key,
      body: eventBody(key),
      status: 'pending',
      attempts_made: 0,
      created_at: replyTime.toISOString(),
      next_attempt_at: replyTime.toISOString(),
      delivered_at: null,
      failed_at: null,
      last_error: null,
      lease_owner: null,
      lease_until: null,
      cancelled_at: null,
      ...overrides,
    };
  };
  return {
    store,
    campaign,
    enrolment,
    async webhook(overrides = {}) {
      const record: WebhookRecord = {
        id: crypto.randomUUID(),
        organization_id: organization.id,
        campaign_id: campaign.id,
        url: `https://hooks.example.com/${crypto.randomUUID()}`,
        enabled: true,
        secret: 'whsec_delivery_fixture_0123456789',
        created_at: replyTime.toISOString(),
        updated_at: replyTime.toISOString(),
        ...overrides,
      };
      await store.webhooks.insert(record);
      return record;
    },
    delivery,
    async enqueue(overrides = {}) {
      const record = delivery(overrides);
      await store.deliveries.enqueue(record);
      return record;
    },
  };
}
