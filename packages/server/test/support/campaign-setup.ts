/**
 * Fixtures for the campaign, sequence, sender, preview and responder suites: the example
 * sequence of the document, campaigns made through the API, the demo organization's sender
 * accounts by role, leads enrolled directly through the store, and a store whose methods a
 * test can intercept (to make a write land at an exact moment, or a write fail).
 */
import type { Clock } from '../../src/domain/clock.ts';
import type { EnrolmentRecord, LeadRecord, Sequence, SenderAccountRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';
import type { TestApi } from './api.ts';

/** A clock one second further on at every reading, so each request has its own time. */
export function tickingClock(start = '2026-11-06T10:00:00.000Z'): Clock {
  let time = Date.parse(start);
  return { now: () => new Date((time += 1000)) };
}

/** The Q4 Founders sequence of the document: variation_a steps 1-6, variation_b steps 7-12. */
export function q4Sequence(): Sequence {
  const arm = (first: number, subject: string): Sequence['variation_a'] => [
    {
      id: first,
      type: 'email',
      subject,
      content: 'Hi {first_name},\n\n{icebreaker}\n\nWorth a call about {company}?',
      delay: 0,
    },
    { id: first + 1, type: 'view_profile', delay: 1 },
    { id: first + 2, type: 'linkedin_connection', message: 'Hi {first_name}, happy to connect.', delay: 1 },
    {
      id: first + 3,
      type: 'conditional',
      delay: 3,
      branches: {
        yes: [{ id: first + 4, type: 'linkedin_message', message: 'Thanks for connecting, {first_name}.', delay: 1 }],
        no: [
          { id: first + 5, type: 'email', subject: `Re: ${subject}`, content: 'Following up, {first_name}.', delay: 2 },
        ],
      },
    },
  ];
  return {
    variation_a: arm(1, '{first_name}, quick question about {company}'),
    variation_b: arm(7, 'Idea for {company} pipeline'),
  };
}

/** An email-only sequence of `count` steps with IDs 1..count. */
export function emailSequence(count = 2): Sequence {
  return {
    variation_a: Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      type: 'email' as const,
      subject: `Step ${i + 1} for {first_name}`,
      content: `Hello {first_name} at {company} (${i + 1})`,
      delay: i === 0 ? 0 : 2,
    })),
  };
}

export async function createCampaign(
  api: TestApi,
  body: { name?: string; sequence?: Sequence | null } = {},
): Promise<string> {
  const answer = await api.call<{ campaign_id: string }>('POST', '/v1/campaigns', {
    body: { name: body.name ?? 'Test campaign', ...(body.sequence === undefined ? {} : { sequence: body.sequence }) },
  });
  if (answer.status !== 201) throw new Error(`campaign not created: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.campaign_id;
}

export interface DemoAccounts {
  linkedin: SenderAccountRecord;
  email: SenderAccountRecord;
  linkedin2: SenderAccountRecord;
  disconnectedEmail: SenderAccountRecord;
}

/** The demo organization's four sender accounts (seed/demo.ts), by role. */
export async function demoAccounts(api: TestApi): Promise<DemoAccounts> {
  const { items } = await api.store.accounts.list(api.organizationId, { limit: 500, offset: 0 });
  const find = (prefix: string) => {
    const account = items.find((a) => a.id.startsWith(prefix));
    if (!account) throw new Error(`demo account ${prefix} missing`);
    return account;
  };
  return {
    linkedin: find('acc_li_demo0001'),
    email: find('acc_em_demo0001'),
    linkedin2: find('acc_li_demo0002'),
    disconnectedEmail: find('acc_em_demo0002'),
  };
}

let leadCounter = 0;

/** A lead of the organization, enrolled in `campaignId` when given; inserted through the store. */
export async function insertLead(
  api: TestApi,
  fields: Partial<LeadRecord> = {},
  campaignId?: string,
): Promise<{ lead: LeadRecord; enrolment: EnrolmentRecord | null }> {
  leadCounter += 1;
  const at = new Date(Date.UTC(2026, 10, 1, 9, 0, leadCounter)).toISOString();
  const lead: LeadRecord = {
    id: crypto.randomUUID(),
    organization_id: api.organizationId,
    email: `lead${leadCounter}.${crypto.randomUUID().slice(0, 8)}@example.com`,
    first_name: 'Maya',
    last_name: 'Patel',
    company: 'Acme Robotics',
    title: 'VP of Sales',
    industry: null,
    website: null,
    linkedin_profile: null,
    annual_revenue: null,
    employee_count: null,
    custom_fields: {},
    deleted_at: null,
    created_at: at,
    updated_at: at,
    ...fields,
  };
  await api.store.leads.insert(lead);
  if (!campaignId) return { lead, enrolment: null };
  const enrolment: EnrolmentRecord = {
    id: crypto.randomUUID(),
    organization_id: api.organizationId,
    campaign_id: campaignId,
    lead_id: lead.id,
    status: 'not_contacted',
    variation: null,
    enrolled_at: at,
    removed_at: null,
  };
  await api.store.enrolments.insert(enrolment);
  return { lead, enrolment };
}

/**
 * A campaign that passes the preflight: an email sequence, the connected email account,
 * one enrolled lead. Activating it answers 200.
 */
export async function readyCampaign(api: TestApi, accountIds?: string[]): Promise<string> {
  const id = await createCampaign(api, { name: `Ready ${crypto.randomUUID().slice(0, 6)}`, sequence: emailSequence() });
  const accounts = accountIds ?? [(await demoAccounts(api)).email.id];
  const assigned = await api.call('PUT', `/v1/campaigns/${id}/senders`, { body: { account_ids: accounts } });
  if (assigned.status !== 200) throw new Error(`senders not assigned: ${JSON.stringify(assigned.body)}`);
  await insertLead(api, {}, id);
  return id;
}

type Part = Exclude<keyof Store, 'kind' | 'transaction' | 'close'>;
export type StoreHooks = { [K in Part]?: (inner: Store[K]) => Partial<Store[K]> };

/**
 * `store` with some methods replaced, in and out of transactions alike. Each hook gets the
 * real part (the transaction's, inside one) and returns the methods to use instead.
 */
export function interceptStore(store: Store, hooks: StoreHooks): Store {
  const wrap = (inner: Store): Store => {
    const wrapped: Store = {
      ...inner,
      transaction: (work, options) => inner.transaction((tx) => work(wrap(tx)), options),
    };
    for (const part of Object.keys(hooks) as Part[]) {
      const hook = hooks[part] as (real: Store[Part]) => Partial<Store[Part]>;
      (wrapped as unknown as Record<Part, unknown>)[part] = { ...inner[part], ...hook(inner[part]) };
    }
    return wrapped;
  };
  return wrap(store);
}

/**
 * A sandbox campaign whose lead replied: one-step email sequence, the email account, a
 * webhook, activated, its first step run, and a reply recorded, so that one
 * `prospect_response` delivery waits for the engine's delivery worker. Returns the campaign.
 */
export async function replyAwaitingDelivery(api: TestApi): Promise<string> {
  const campaignId = await createCampaign(api, { sequence: emailSequence(1) });
  await api.call('PUT', `/v1/campaigns/${campaignId}/senders`, {
    body: { account_ids: [(await demoAccounts(api)).email.id] },
  });
  const lead = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
    body: { email: 'maya@example.com', campaign_id: campaignId },
  });
  await api.call('POST', `/v1/campaigns/${campaignId}/webhooks`, {
    body: { webhook_url: 'https://hooks.example.com/x' },
  });
  const activated = await api.call('PATCH', `/v1/campaigns/${campaignId}`, { body: { is_active: true } });
  if (activated.status !== 200) throw new Error(`not activated: ${JSON.stringify(activated.body)}`);
  await api.app.engine.runDue();
  const replied = await api.call('POST', `/v1/sandbox/campaigns/${campaignId}/replies`, {
    body: { lead_id: lead.body.lead.id, channel: 'email', message: 'Sounds good.' },
  });
  if (replied.status !== 201) throw new Error(`no reply: ${JSON.stringify(replied.body)}`);
  return campaignId;
}
