/**
 * Records for the webhook and CRM tests, written straight to the store: an organization with
 * an owner, campaigns, leads, pipelines with stages, deals and webhooks. Timestamps are fixed
 * (the example fixture's autumn 2026) so that ordering assertions never depend on the clock.
 */
import { createOrganization } from '../../src/seed/organizations.ts';
import type {
  CampaignRecord,
  DealRecord,
  LeadRecord,
  PipelineRecord,
  StageRecord,
  WebhookRecord,
} from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';

/** `2026-10-<day>T09:00:00.000Z` plus `minutes`. */
export const oct = (day: number, minutes = 0) => new Date(Date.UTC(2026, 9, day, 9, minutes)).toISOString();

export interface CrmFixtures {
  organizationId: string;
  ownerId: string;
  campaign(overrides?: Partial<CampaignRecord>): Promise<CampaignRecord>;
  lead(overrides?: Partial<LeadRecord>): Promise<LeadRecord>;
  webhook(campaign: CampaignRecord, overrides?: Partial<WebhookRecord>): Promise<WebhookRecord>;
  /** A pipeline with stages open 20 %, open 60 %, won 100 %, lost 0 % (positions 0 to 3). */
  pipeline(overrides?: Partial<PipelineRecord>): Promise<{ pipeline: PipelineRecord; stages: StageRecord[] }>;
  deal(overrides?: Partial<DealRecord>): Promise<DealRecord>;
}

export async function crmFixtures(store: Store, organizationId?: string, ownerId?: string): Promise<CrmFixtures> {
  let owner = ownerId;
  let orgId = organizationId;
  if (orgId === undefined) {
    owner = crypto.randomUUID();
    const organization = await createOrganization(store, {
      name: 'CRM Org',
      members: [{ id: owner, email: 'owner@crm.example', name: 'Owner', role: 'owner' }],
    });
    orgId = organization.id;
  }
  const org = orgId;
  const member = owner ?? crypto.randomUUID();
  return {
    organizationId: org,
    ownerId: member,
    async campaign(overrides = {}) {
      const record: CampaignRecord = {
        id: crypto.randomUUID(),
        organization_id: org,
        owner_id: member,
        name: 'Q4 Founders Outreach',
        description: '',
        is_active: false,
        ab_testing_enabled: false,
        traffic_split: 50,
        ab_winner: null,
        custom_fields: {},
        enabled_accounts: [],
        lead_database_filters: null,
        refill_policy: null,
        responder_enabled: false,
        sequence: [],
        sequence_version: 0,
        activated_at: null,
        created_at: oct(5),
        updated_at: oct(5),
        ...overrides,
      };
      await store.campaigns.insert(record);
      return record;
    },
    async lead(overrides = {}) {
      const record: LeadRecord = {
        id: crypto.randomUUID(),
        organization_id: org,
        email: `maya.${crypto.randomUUID().slice(0, 8)}@acmerobotics.com`,
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
        created_at: oct(6),
        updated_at: oct(6),
        ...overrides,
      };
      await store.leads.insert(record);
      return record;
    },
    async webhook(campaign, overrides = {}) {
      const record: WebhookRecord = {
        id: crypto.randomUUID(),
        organization_id: campaign.organization_id,
        campaign_id: campaign.id,
        url: `https://hooks.example.com/${crypto.randomUUID()}`,
        enabled: true,
        secret: 'whsec_fixture_secret_0123456789',
        created_at: oct(6),
        updated_at: oct(6),
        ...overrides,
      };
      await store.webhooks.insert(record);
      return record;
    },
    async pipeline(overrides = {}) {
      const pipeline: PipelineRecord = {
        id: crypto.randomUUID(),
        organization_id: org,
        name: 'Partnerships',
        is_active: true,
        is_default: false,
        created_at: oct(1),
        updated_at: oct(1),
        ...overrides,
      };
      const shapes: Array<Pick<StageRecord, 'name' | 'probability' | 'outcome'>> = [
        { name: 'Qualified', probability: 20, outcome: 'open' },
        { name: 'Proposal', probability: 60, outcome: 'open' },
        { name: 'Closed won', probability: 100, outcome: 'won' },
        { name: 'Closed lost', probability: 0, outcome: 'lost' },
      ];
      const stages = shapes.map((shape, position) => ({
        ...shape,
        id: crypto.randomUUID(),
        organization_id: org,
        pipeline_id: pipeline.id,
        position,
      }));
      await store.transaction(async (tx) => {
        await tx.pipelines.insert(pipeline);
        for (const stage of stages) await tx.pipelines.insertStage(stage);
      });
      return { pipeline, stages };
    },
    async deal(overrides = {}) {
      const record: DealRecord = {
        id: crypto.randomUUID(),
        organization_id: org,
        name: 'Acme Robotics pilot',
        lead_id: null,
        pipeline_id: null,
        stage_id: null,
        owner_id: null,
        value: null,
        probability: null,
        expected_close_date: null,
        actual_close_date: null,
        notes: null,
        custom_fields: null,
        metadata: null,
        created_at: oct(7),
        updated_at: oct(7),
        ...overrides,
      };
      await store.deals.insert(record);
      return record;
    },
  };
}
