/**
 * Creates fixtures through the API, in the order an integrator would: the campaign, its
 * senders, its leads, its webhooks, then its activation. Every rule of the service applies;
 * a fixture it refuses fails `createOcsMock` with the API's answer.
 */
import type { components } from '@ocs/sdk/types';
import type { CampaignInput, Sequence, SenderAccount } from '../api-types.ts';
import { type CallApp, OcsMockSetupError } from '../in-process.ts';
import type { OcsMockFixtures } from '../options.ts';

type WebhookRegistration = components['schemas']['WebhookRegistration'];

/** A webhook a fixture registered, with the secret the service generated (or the fixture gave). */
export interface RegisteredWebhook {
  campaignId: string;
  webhookId: string;
  url: string;
  /** The signing secret: the fixture's, else the one the registration answered. */
  secret: string | null;
}

export interface CreatedFixtures {
  campaignIds: string[];
  /** Every lead created, in creation order (a lead enrolled twice appears once). */
  leadIds: string[];
  webhooks: RegisteredWebhook[];
}

export async function createFixtures(
  callApp: CallApp,
  fixtures: OcsMockFixtures,
  accounts: readonly SenderAccount[],
): Promise<CreatedFixtures> {
  const created: CreatedFixtures = { campaignIds: [], leadIds: [], webhooks: [] };
  // Accounts of the campaigns activated so far: 'auto' avoids them (an account sends for
  // one active campaign at a time).
  const busy = new Set<string>();
  const addLead = (id: string) => {
    if (!created.leadIds.includes(id)) created.leadIds.push(id);
  };

  for (const [index, fixture] of (fixtures.campaigns ?? []).entries()) {
    const label = `fixtures.campaigns[${index}]`;
    const call: CallApp = (method, path, body) => naming(label, callApp(method, path, body));
    const { senders, leads, webhooks, activate, ...input } = fixture;
    const { campaign_id: campaignId } = await call<{ campaign_id: string }>(
      'POST',
      '/campaigns',
      input satisfies CampaignInput,
    );
    created.campaignIds.push(campaignId);
    const accountIds =
      senders === 'auto' || (senders === undefined && activate)
        ? autoSenders(input.sequence ?? null, accounts, busy)
        : (senders ?? []);
    if (accountIds.length > 0) {
      await call('PUT', `/campaigns/${campaignId}/senders`, { account_ids: accountIds });
    }
    for (const id of await importLeads(
      callApp,
      (leads ?? []).map((lead) => ({ ...lead, campaign_id: campaignId })),
      `${label}.leads`,
    )) {
      addLead(id);
    }
    for (const webhook of webhooks ?? []) {
      const answer = await call<WebhookRegistration>('POST', `/campaigns/${campaignId}/webhooks`, webhook);
      created.webhooks.push({
        campaignId,
        webhookId: answer.webhook_id,
        url: webhook.webhook_url,
        secret: webhook.secret ?? answer.secret ?? null,
      });
    }
    if (activate) {
      await call('PATCH', `/campaigns/${campaignId}`, { is_active: true });
      for (const id of accountIds) busy.add(id);
    }
  }
  for (const id of await importLeads(callApp, fixtures.leads ?? [], 'fixtures.leads')) addLead(id);
  return created;
}

type LeadInput = NonNullable<OcsMockFixtures['leads']>[number];
type BatchItem = { index: number; status: number; lead_id?: string };

/** Leads per batch: far below the 1 MB body limit for any fixture a test writes. */
const batchSize = 500;

/**
 * The leads with the batch form of `POST /leads` (one request per 500 leads instead of one
 * per lead, which was most of a mock's start), in order; an item the service refuses fails
 * as its single form would have.
 */
async function importLeads(call: CallApp, leads: readonly LeadInput[], label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < leads.length; start += batchSize) {
    const batch = leads.slice(start, start + batchSize);
    // A batch refused whole names its item within the batch (`body.leads[3]`).
    const end = Math.min(start + batchSize, leads.length) - 1;
    const { results } = await naming(
      batchSize < leads.length ? `${label}[${start}..${end}]` : label,
      call<{ results: BatchItem[] }>('POST', '/leads', { leads: batch }),
    );
    for (const result of results) {
      const index = start + result.index;
      if (!result.lead_id) throw new OcsMockSetupError('POST /v1/leads', result.status, result, `${label}[${index}]`);
      ids.push(result.lead_id);
    }
  }
  return ids;
}

/** `answer`, or its refusal naming the fixture it was for. */
async function naming<T>(fixture: string, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    throw error instanceof OcsMockSetupError ? error.forFixture(fixture) : error;
  }
}

/** One connected account per channel the sequence uses, preferring accounts not in `busy`. */
function autoSenders(sequence: Sequence | null, accounts: readonly SenderAccount[], busy: Set<string>): string[] {
  const ids: string[] = [];
  for (const platform of channelsOf(sequence)) {
    const connected = accounts.filter((a) => a.platform === platform && a.status === 'connected');
    const account = connected.find((a) => !busy.has(a.id)) ?? connected[0];
    if (account) ids.push(account.id);
  }
  return ids;
}

type Step = Sequence['variation_a'][number];

function channelsOf(sequence: Sequence | null): Set<'email' | 'linkedin'> {
  const channels = new Set<'email' | 'linkedin'>();
  const visit = (steps: readonly Step[] | null | undefined) => {
    for (const step of steps ?? []) {
      channels.add(step.type === 'email' ? 'email' : 'linkedin');
      visit(step.branches?.yes);
      visit(step.branches?.no);
    }
  };
  visit(sequence?.variation_a);
  visit(sequence?.variation_b);
  return channels;
}
