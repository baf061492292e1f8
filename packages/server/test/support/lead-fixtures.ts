/** Records and clocks for the lead and account tests: campaigns written straight to the store. */
import type { Clock } from '../../src/domain/clock.ts';
import type { CampaignRecord, EnrolmentRecord, LeadRecord } from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';

/** A clock that moves one second forward on every reading, so creation order is unambiguous. */
export function steppingClock(start = '2026-11-06T10:00:00.000Z'): Clock & { current(): Date } {
  let time = Date.parse(start);
  return {
    now: () => new Date((time += 1000)),
    current: () => new Date(time),
  };
}

export async function insertCampaign(
  store: Store,
  organizationId: string,
  ownerId: string,
  overrides: Partial<CampaignRecord> = {},
): Promise<CampaignRecord> {
  const at = overrides.created_at ?? '2026-10-05T09:00:00.000Z';
  const record: CampaignRecord = {
    id: crypto.randomUUID(),
    organization_id: organizationId,
    owner_id: ownerId,
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
    created_at: at,
    updated_at: at,
    ...overrides,
  };
  await store.campaigns.insert(record);
  return record;
}

export function leadRecord(organizationId: string, overrides: Partial<LeadRecord> = {}): LeadRecord {
  const at = overrides.created_at ?? '2026-10-06T09:12:44.000Z';
  return {
    id: crypto.randomUUID(),
    organization_id: organizationId,
    email: 'maya.patel@acmerobotics.com',
    first_name: 'Maya',
    last_name: 'Patel',
    company: 'Acme Robotics',
    title: 'Co-founder & CEO',
    industry: 'Industrial Automation',
    website: 'https://acmerobotics.com',
    linkedin_profile: 'https://www.linkedin.com/in/maya-patel-acme',
    annual_revenue: 48_000_000,
    employee_count: 240,
    custom_fields: { funding_stage: 'Series B' },
    deleted_at: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

export function enrolmentRecord(lead: LeadRecord, campaignId: string, overrides: Partial<EnrolmentRecord> = {}) {
  const record: EnrolmentRecord = {
    id: crypto.randomUUID(),
    organization_id: lead.organization_id,
    campaign_id: campaignId,
    lead_id: lead.id,
    status: 'not_contacted',
    variation: null,
    enrolled_at: lead.created_at,
    removed_at: null,
    ...overrides,
  };
  return record;
}

/** Maya Patel as `POST /leads` takes her. */
export const mayaInput = {
  email: 'maya.patel@acmerobotics.com',
  first_name: 'Maya',
  last_name: 'Patel',
  company: 'Acme Robotics',
  title: 'Co-founder & CEO',
  industry: 'Industrial Automation',
  website: 'https://acmerobotics.com',
  linkedin_profile: 'https://www.linkedin.com/in/maya-patel-acme',
  annual_revenue: 48_000_000,
  employee_count: 240,
  custom_fields: { funding_stage: 'Series B' },
};

/** The personal and company fields that erasure must leave empty. */
export const personalFields = [
  'email',
  'first_name',
  'last_name',
  'company',
  'title',
  'industry',
  'website',
  'linkedin_profile',
  'annual_revenue',
  'employee_count',
] as const;
