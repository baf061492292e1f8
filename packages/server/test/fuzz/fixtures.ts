/**
 * The fixture phase: before any attack, real resources are made through the API (campaigns
 * with the document's example sequence and senders, enrolled leads, AI fields, webhooks,
 * deals; an active campaign with a reply), for the test organization and for a second one
 * whose IDs the `bad_id` class uses. Their IDs fill the pools that `Ref`s point into; what
 * valid requests create later is added as it comes.
 */
import type { App } from '../../src/app.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import type { Store } from '../../src/store/types.ts';
import { q4Sequence } from '../support/campaign-setup.ts';
import { hookA, hookB } from '../support/webhook-api.ts';
import type { ResourceKind } from './model.ts';

export interface PoolEntry {
  id: string;
  /** The campaign a webhook or AI field belongs to. */
  campaign?: string;
}

export type Pools = Record<ResourceKind, PoolEntry[]>;

export interface Organization {
  key: string;
  pools: Pools;
}

export interface Fixtures {
  own: Organization;
  foreign: Organization;
}

export async function createFixtures(app: App, store: Store): Promise<Fixtures> {
  const own = await organization(app, store, 'Fuzz Outreach', 3, 4);
  const foreign = await organization(app, store, 'Other Outreach', 1, 2);
  return { own, foreign };
}

async function organization(
  app: App,
  store: Store,
  name: string,
  campaigns: number,
  leadsEach: number,
): Promise<Organization> {
  const demo = await seedDemoOrganization(store, { name });
  const call = caller(app, demo.apiKey);
  const pools: Pools = {
    campaign: [],
    lead: [],
    webhook: [],
    ai_field: [],
    deal: [],
    pipeline: [],
    stage: [],
    member: [{ id: demo.ownerId }],
    account: [],
    step: Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1) })),
  };
  const accounts = await call('GET', '/v1/accounts');
  const senders = (accounts.accounts as Array<{ id: string; status: string }>).filter((a) => a.status === 'connected');
  pools.account = (accounts.accounts as Array<{ id: string }>).map((a) => ({ id: a.id }));
  const pipelines = await call('GET', '/v1/crm/pipelines');
  for (const pipeline of pipelines.pipelines as Array<{ id: string }>) {
    pools.pipeline.push({ id: pipeline.id });
    const detail = await call('GET', `/v1/crm/pipelines/${pipeline.id}`);
    for (const stage of (detail.pipeline as { stages: Array<{ id: string }> }).stages)
      pools.stage.push({ id: stage.id });
  }
  for (let c = 0; c < campaigns; c++) {
    const campaign = (await call('POST', '/v1/campaigns', { name: `${name} ${c + 1}`, sequence: q4Sequence() }))
      .campaign_id as string;
    pools.campaign.push({ id: campaign });
    await call('PUT', `/v1/campaigns/${campaign}/senders`, { account_ids: senders.map((a) => a.id) });
    const field = await call('POST', `/v1/campaigns/${campaign}/ai-fields`, {
      field_name: 'icebreaker',
      ai_instructions: 'One line about their company.',
      fallback_value: 'Hope the week is going well.',
    });
    pools.ai_field.push({ id: field.id as string, campaign });
    // A campaign has one webhook slot; the first one, replaced, stays as a disabled webhook.
    for (const [index, webhook_url] of [hookA, hookB].entries()) {
      const hook = await call('POST', `/v1/campaigns/${campaign}/webhooks`, { webhook_url, replace: index > 0 });
      pools.webhook.push({ id: hook.webhook_id as string, campaign });
    }
    for (let l = 0; l < leadsEach; l++) {
      const lead = await call('POST', '/v1/leads', {
        email: `lead${c}.${l}@${name.toLowerCase().replaceAll(' ', '')}.example`,
        first_name: `Lead${l}`,
        company: `Company ${c}`,
        linkedin_profile: `https://www.linkedin.com/in/lead-${c}-${l}`,
        campaign_id: campaign,
      });
      pools.lead.push({ id: (lead.lead as { id: string }).id });
    }
  }
  for (const [index, lead] of pools.lead.entries()) {
    const deal = await call('POST', '/v1/crm/deals', {
      name: `Deal ${index}`,
      lead_id: lead.id,
      stage_id: pools.stage[index % pools.stage.length]?.id ?? null,
      value: 1000 * (index + 1),
    });
    pools.deal.push({ id: deal.id as string });
  }
  // One active campaign with a reply, so that analytics, queue and messages have rows.
  const first = pools.campaign[0]?.id as string;
  await call('PATCH', `/v1/campaigns/${first}`, { is_active: true });
  await call('POST', '/v1/sandbox/clock/advance', { days: 1 });
  await call('POST', `/v1/sandbox/campaigns/${first}/replies`, {
    lead_id: pools.lead[0]?.id,
    channel: 'email',
    message: 'Sounds interesting, can we talk Tuesday?',
  });
  return { key: demo.apiKey, pools };
}

/** Calls the app with the organization's key; a fixture that is not made stops the run. */
function caller(app: App, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await app.fetch(
      new Request(`http://localhost${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300) {
      throw new Error(`fixture ${method} ${path} answered ${response.status} ${JSON.stringify(answer)}`);
    }
    return answer;
  };
}
