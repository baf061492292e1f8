/**
 * A small builder of campaigns, leads, enrolments, activity events and bookings written
 * straight to the store, for the activity contract and the analytics API tests: they seed
 * what the engine (issue 5) will write, and check the numbers read back from it.
 */
import type {
  ActivityEventRecord,
  ActivityKind,
  BookingRecord,
  CampaignRecord,
  EnrolmentRecord,
  LeadRecord,
  ReplyData,
  Sequence,
} from '../../src/store/records.ts';
import type { Store } from '../../src/store/types.ts';

/** `2026-11-<day>T<hour>:<minute>:00.000Z`: the example fixture's early November. */
export const nov = (day: number, hour = 9, minute = 0) => new Date(Date.UTC(2026, 10, day, hour, minute)).toISOString();

const channelOf: Partial<Record<ActivityKind, 'email' | 'linkedin'>> = {
  email_sent: 'email',
  email_opened: 'email',
  profile_viewed: 'linkedin',
  connection_requested: 'linkedin',
  already_connected: 'linkedin',
  connection_accepted: 'linkedin',
  linkedin_message_sent: 'linkedin',
};

/** The Q4 Founders sequence of the example fixture: arm a steps 1-6, arm b steps 7-12. */
export function q4Sequence(): Sequence {
  const arm = (first: number, subject: string) => [
    { id: first, type: 'email' as const, subject, content: 'Hi {first_name}, {icebreaker} at {company}', delay: 0 },
    { id: first + 1, type: 'view_profile' as const, delay: 1 },
    { id: first + 2, type: 'linkedin_connection' as const, message: 'Hi {first_name}', delay: 1 },
    {
      id: first + 3,
      type: 'conditional' as const,
      delay: 3,
      branches: {
        yes: [{ id: first + 4, type: 'linkedin_message' as const, message: 'Thanks {first_name}', delay: 1 }],
        no: [{ id: first + 5, type: 'email' as const, subject: 'Following up', content: 'Hi {first_name}', delay: 2 }],
      },
    },
  ];
  return { variation_a: arm(1, '{first_name}, a question'), variation_b: arm(7, 'Quick idea for {company}') };
}

export interface ActivityBuilder {
  store: Store;
  organizationId: string;
  campaign(overrides?: Partial<CampaignRecord>): Promise<CampaignRecord>;
  lead(overrides?: Partial<LeadRecord>): Promise<LeadRecord>;
  /** Enrols a new lead (or `lead`) in the campaign. */
  enrol(
    campaign: CampaignRecord,
    overrides?: Partial<EnrolmentRecord> & { lead?: LeadRecord },
  ): Promise<EnrolmentRecord & { lead: LeadRecord }>;
  event(
    enrolment: EnrolmentRecord,
    kind: ActivityKind,
    occurredAt: string,
    overrides?: Partial<ActivityEventRecord>,
  ): Promise<ActivityEventRecord>;
  reply(
    enrolment: EnrolmentRecord,
    occurredAt: string,
    channel: 'email' | 'linkedin',
    data?: ReplyData,
    overrides?: Partial<ActivityEventRecord>,
  ): Promise<ActivityEventRecord>;
  booking(
    enrolment: EnrolmentRecord,
    kind: BookingRecord['kind'],
    bookedAt: string,
    overrides?: Partial<BookingRecord>,
  ): Promise<BookingRecord>;
}

export function activityBuilder(store: Store, organizationId: string, ownerId: string): ActivityBuilder {
  let leadCount = 0;
  const builder: ActivityBuilder = {
    store,
    organizationId,
    async campaign(overrides = {}) {
      const at = '2026-10-05T09:00:00.000Z';
      const record: CampaignRecord = {
        id: crypto.randomUUID(),
        organization_id: organizationId,
        owner_id: ownerId,
        name: 'Q4 Founders Outreach',
        description: '',
        is_active: true,
        ab_testing_enabled: true,
        traffic_split: 50,
        ab_winner: null,
        custom_fields: {},
        enabled_accounts: [],
        lead_database_filters: null,
        refill_policy: null,
        responder_enabled: false,
        sequence: q4Sequence(),
        sequence_version: 1,
        activated_at: '2026-11-01T00:00:00.000Z',
        created_at: at,
        updated_at: at,
        ...overrides,
      };
      await store.campaigns.insert(record);
      return record;
    },
    async lead(overrides = {}) {
      leadCount += 1;
      const at = new Date(Date.UTC(2026, 9, 6, 9, 0, leadCount)).toISOString();
      const record: LeadRecord = {
        id: crypto.randomUUID(),
        organization_id: organizationId,
        email: `lead${leadCount}.${crypto.randomUUID().slice(0, 8)}@example.com`,
        first_name: `First${leadCount}`,
        last_name: `Last${leadCount}`,
        company: `Company ${leadCount}`,
        title: null,
        industry: null,
        website: null,
        linkedin_profile: null,
        annual_revenue: null,
        employee_count: null,
        custom_fields: {},
        deleted_at: null,
        created_at: at,
        updated_at: at,
        ...overrides,
      };
      await store.leads.insert(record);
      return record;
    },
    async enrol(campaign, overrides = {}) {
      const { lead: given, ...rest } = overrides;
      const lead = given ?? (await builder.lead());
      const record: EnrolmentRecord = {
        id: crypto.randomUUID(),
        organization_id: organizationId,
        campaign_id: campaign.id,
        lead_id: lead.id,
        status: 'not_contacted',
        variation: null,
        enrolled_at: '2026-10-20T09:00:00.000Z',
        removed_at: null,
        ...rest,
      };
      await store.enrolments.insert(record);
      return { ...record, lead };
    },
    async event(enrolment, kind, occurredAt, overrides = {}) {
      const record: ActivityEventRecord = {
        id: crypto.randomUUID(),
        organization_id: enrolment.organization_id,
        campaign_id: enrolment.campaign_id,
        enrolment_id: enrolment.id,
        lead_id: enrolment.lead_id,
        variation: enrolment.variation,
        step_id: null,
        account_id: null,
        channel: channelOf[kind] ?? null,
        kind,
        occurred_at: occurredAt,
        data: {},
        ...overrides,
      };
      await store.activity.insert(record);
      return record;
    },
    async reply(enrolment, occurredAt, channel, data = {}, overrides = {}) {
      return builder.event(enrolment, 'reply_received', occurredAt, {
        channel,
        data: { sentiment: null, out_of_office: false, message: 'Thanks for reaching out', ...data },
        ...overrides,
      });
    },
    async booking(enrolment, kind, bookedAt, overrides = {}) {
      const meeting = kind === 'meeting';
      const record: BookingRecord = {
        id: crypto.randomUUID(),
        organization_id: enrolment.organization_id,
        campaign_id: enrolment.campaign_id,
        enrolment_id: enrolment.id,
        lead_id: enrolment.lead_id,
        kind,
        booked_at: bookedAt,
        start_time: meeting ? new Date(Date.parse(bookedAt) + 3 * 86_400_000).toISOString() : null,
        status: meeting ? 'active' : null,
        invitee_name: meeting ? 'Invitee Name' : null,
        invitee_email: meeting ? 'invitee@example.com' : null,
        canceled_at: null,
        rescheduled: meeting ? false : null,
        confirmed_by: meeting ? null : 'agent',
        ...overrides,
      };
      await store.bookings.insert(record);
      return record;
    },
  };
  return builder;
}
