/**
 * Analytics inputs built in memory, for the pure functions' tests: enrolments, events and
 * bookings with readable IDs (`e1`, `e1-3`), times in early November 2026.
 */
import type { ActivityEvent } from '../../src/domain/activity.ts';
import type { AnalyticsData, CountedBooking } from '../../src/domain/analytics/index.ts';
import type { ActivityKind, EnrolmentWithLeadRecord, ReplyData } from '../../src/store/records.ts';

export const at = (day: number, hour = 9, minute = 0) => new Date(Date.UTC(2026, 10, day, hour, minute)).toISOString();

const channelOf: Partial<Record<ActivityKind, 'email' | 'linkedin'>> = {
  email_sent: 'email',
  email_opened: 'email',
  profile_viewed: 'linkedin',
  connection_requested: 'linkedin',
  already_connected: 'linkedin',
  connection_accepted: 'linkedin',
  linkedin_message_sent: 'linkedin',
};

export interface DataBuilder {
  lead(id: string, overrides?: Partial<EnrolmentWithLeadRecord>): DataBuilder;
  event(enrolmentId: string, kind: ActivityKind, occurredAt: string, extra?: Partial<ActivityEvent>): DataBuilder;
  reply(
    enrolmentId: string,
    occurredAt: string,
    channel: 'email' | 'linkedin',
    data?: ReplyData,
    extra?: Partial<ActivityEvent>,
  ): DataBuilder;
  booking(enrolmentId: string, kind: CountedBooking['kind'], bookedAt: string): DataBuilder;
  data(): AnalyticsData;
}

export function dataBuilder(): DataBuilder {
  const enrolments: EnrolmentWithLeadRecord[] = [];
  const events: ActivityEvent[] = [];
  const bookings: CountedBooking[] = [];
  const builder: DataBuilder = {
    lead(id, overrides = {}) {
      enrolments.push({
        id,
        organization_id: 'org',
        campaign_id: 'c1',
        lead_id: `lead-${id}`,
        status: 'active',
        variation: 'a',
        enrolled_at: at(1),
        removed_at: null,
        lead_deleted_at: null,
        ...overrides,
      });
      return builder;
    },
    event(enrolmentId, kind, occurredAt, extra = {}) {
      events.push({
        id: `${enrolmentId}-${String(events.length).padStart(4, '0')}`,
        enrolment_id: enrolmentId,
        kind,
        occurred_at: occurredAt,
        step_id: null,
        account_id: null,
        channel: channelOf[kind] ?? null,
        data: {},
        ...extra,
      });
      return builder;
    },
    reply(enrolmentId, occurredAt, channel, data = {}, extra = {}) {
      return builder.event(enrolmentId, 'reply_received', occurredAt, {
        channel,
        data: { sentiment: null, out_of_office: false, message: 'reply', ...data },
        ...extra,
      });
    },
    booking(enrolmentId, kind, bookedAt) {
      bookings.push({ id: `${enrolmentId}-b${bookings.length}`, enrolment_id: enrolmentId, kind, booked_at: bookedAt });
      return builder;
    },
    data: () => ({ enrolments, events, bookings }),
  };
  return builder;
}
