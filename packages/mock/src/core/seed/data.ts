/**
 * `mock.data`: what the seed or the fixtures created, read back through the API once the
 * mock is ready, so that it has the exact shapes a test gets from the service. It describes
 * the seeded state (the state `reset()` returns to), not later changes.
 */
import type { MemoryStore } from '@ocs/server';
import type { Campaign, Lead, PipelineDetail, SenderAccount, Stage } from '../api-types.ts';
import type { DeepReadonly } from '../frozen.ts';
import type { CallApp } from '../in-process.ts';
import type { CreatedFixtures, RegisteredWebhook } from './fixtures.ts';

export interface OcsMockMember {
  id: string;
  email: string;
  name: string;
  role: string;
}

/**
 * `mock.data`: read-only all the way down, as it is at runtime (deep-frozen, frozen.ts), so
 * that a change in place fails to compile rather than at run time. Copy what you want to
 * change: `[...mock.data.leads].sort(...)`, `structuredClone(mock.data)`.
 */
export type OcsMockData = DeepReadonly<SeededData>;

/**
 * The shape of `mock.data` with nothing read-only: the type of a copy you change,
 * `structuredClone(mock.data) as OcsMockDataCopy` (a copy is yours; `mock.data` is not).
 */
export type OcsMockDataCopy = SeededData;

/** What seeding read back, before it is frozen into `mock.data` ({@link OcsMockData}). */
export interface SeededData {
  /** The organization that owns the API key, with its members. */
  organization: { id: string; name: string; members: OcsMockMember[] };
  /** The API key (`Authorization: Bearer <apiKey>`), holding every scope. */
  apiKey: string;
  /** Sender accounts, as `GET /accounts` answers them (one email account is disconnected). */
  accounts: SenderAccount[];
  /** The default pipeline, with its stages. */
  pipeline: PipelineDetail;
  /** The default pipeline's stages, in order. */
  stages: Stage[];
  /** Campaigns in creation order, as `GET /campaigns/{id}` answers them. */
  campaigns: Campaign[];
  /** Leads in creation order, with their enrolments (`sequence_lead_id`). */
  leads: Lead[];
  /** Webhooks registered by fixtures, with their signing secrets. */
  webhooks: RegisteredWebhook[];
}

export async function readData(
  call: CallApp,
  store: MemoryStore,
  organizationId: string,
  apiKey: string,
  created: CreatedFixtures,
): Promise<SeededData> {
  const organization = await store.organizations.get(organizationId);
  const members = await store.organizations.listMembers(organizationId);
  const accounts = await call<{ accounts: SenderAccount[] }>('GET', '/accounts?limit=500');
  const pipelines = await call<{ pipelines: Array<{ id?: string; is_default?: boolean }> }>(
    'GET',
    '/crm/pipelines?limit=500',
  );
  const defaultId = (pipelines.pipelines.find((p) => p.is_default) ?? pipelines.pipelines[0])?.id;
  const { pipeline } = await call<{ pipeline: PipelineDetail }>('GET', `/crm/pipelines/${defaultId}`);
  const campaigns = await campaignsInOrder(call, created.campaignIds);
  return {
    organization: {
      id: organizationId,
      name: organization?.name ?? '',
      members: members.map(({ id, email, name, role }) => ({ id, email, name, role })),
    },
    apiKey,
    accounts: accounts.accounts,
    pipeline,
    stages: pipeline.stages,
    campaigns,
    leads: await leadsInOrder(call, created.leadIds),
    webhooks: created.webhooks,
  };
}

/**
 * The seeded campaigns, in the order they were created, read from the list (pages of 500,
 * the maximum; the same view as `GET /campaigns/{id}`): one request instead of one per
 * campaign.
 */
async function campaignsInOrder(call: CallApp, ids: readonly string[]): Promise<Campaign[]> {
  const found = new Map<string, Campaign>();
  for (let offset = 0; ids.length > 0; offset += 500) {
    const page = await call<{ campaigns: Campaign[]; has_more: boolean }>(
      'GET',
      `/campaigns?limit=500&offset=${offset}`,
    );
    for (const campaign of page.campaigns) found.set(campaign.id, campaign);
    if (!page.has_more) break;
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** Every lead (pages of 100, the maximum), in the order they were created. */
async function leadsInOrder(call: CallApp, ids: readonly string[]): Promise<Lead[]> {
  const found = new Map<string, Lead>();
  for (let offset = 0; ; offset += 100) {
    const page = await call<{ leads: Lead[]; has_more: boolean }>('GET', `/leads?limit=100&offset=${offset}`);
    for (const lead of page.leads) found.set(lead.id, lead);
    if (!page.has_more) break;
  }
  return ids.flatMap((id) => found.get(id) ?? []);
}
