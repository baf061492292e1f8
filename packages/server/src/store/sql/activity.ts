/** SQL implementations of the activity and booking stores. */
import type { ActivityEvent } from '../../domain/activity.ts';
import type { ActivityEventRecord, BookingRecord, EnrolmentWithLeadRecord } from '../records.ts';
import { type ActivityStore, type BookingStore, decidesPath } from '../types.ts';
import type { SqlClient } from './client.ts';
import { reportingUniqueViolations } from './errors.ts';
import { sqlFirstFactDays } from './first-fact-days.ts';
import { sqlPlaceholderFillSums } from './placeholder-fill-sums.ts';
import { sqlSenderSums } from './sender-sums.ts';
import { dueNotKnown, enrolmentColumnsOf } from './leads.ts';
import { insertRow, updateRow } from './rows.ts';

const enrolmentColumnsOfE = enrolmentColumnsOf('e');

const activityJson = new Set(['data']);

/** The columns of `ActivityEvent`, what the sequence walks read of an event. */
const progressEventColumns = 'id, enrolment_id, kind, occurred_at, step_id, account_id, channel, data';

export function sqlActivity(client: SqlClient): ActivityStore {
  return {
    async insert(record) {
      await reportingUniqueViolations(() => insertRow(client, 'activity_events', record, activityJson));
      if (decidesPath(record))
        await client.query(`update enrolments set ${dueNotKnown} where id = $1`, [record.enrolment_id]);
    },
    async listForCampaign(campaignId, filter = {}) {
      return client.query<ActivityEventRecord>(
        `select * from activity_events
          where campaign_id = $1
            and ($2::timestamptz is null or occurred_at >= $2)
            and ($3::text[] is null or kind = any($3))
          order by occurred_at, id`,
        [campaignId, filter.from ?? null, filter.kinds ?? null],
      );
    },
    async listProgressEvents(campaignId, filter) {
      return client.query<ActivityEvent>(
        `select ${progressEventColumns} from activity_events
          where campaign_id = $1 and kind = any($2::text[])
          order by occurred_at, id`,
        [campaignId, filter.kinds],
      );
    },
    async countByAccount(accountIds, filter) {
      if (accountIds.length === 0) return new Map();
      const rows = await client.query<{ account_id: string; events: number }>(
        `select account_id, count(*)::int as events from activity_events
          where account_id = any($1::text[]) and kind = any($2::text[])
            and occurred_at >= $3 and occurred_at < $4
          group by account_id`,
        [accountIds, filter.kinds, filter.from, filter.to],
      );
      return new Map(rows.map((row) => [row.account_id, row.events]));
    },
    async listForEnrolment(enrolmentId, filter = {}) {
      return client.query<ActivityEventRecord>(
        `select * from activity_events
          where enrolment_id = $1 and ($2::text[] is null or kind = any($2))
          order by occurred_at, id`,
        [enrolmentId, filter.kinds ?? null],
      );
    },
    async listForEnrolments(enrolmentIds) {
      if (enrolmentIds.length === 0) return [];
      return client.query<ActivityEventRecord>(
        'select * from activity_events where enrolment_id = any($1::uuid[]) order by occurred_at, id',
        [enrolmentIds],
      );
    },
    async listEnrolments(campaignId) {
      return client.query<EnrolmentWithLeadRecord>(
        `select ${enrolmentColumnsOfE}, l.deleted_at as lead_deleted_at
           from enrolments e join leads l on l.id = e.lead_id
          where e.campaign_id = $1
          order by e.enrolled_at, e.id`,
        [campaignId],
      );
    },
    async firstFactDays(campaignId, query) {
      return sqlFirstFactDays(client, campaignId, query);
    },
    async placeholderFillSums(campaignId, query) {
      return sqlPlaceholderFillSums(client, campaignId, query);
    },
    async senderSums(campaignId, query) {
      return sqlSenderSums(client, campaignId, query);
    },
    async eraseLead(organizationId, leadId) {
      await client.query(
        `update activity_events set data = jsonb_set(data, '{message}', 'null'::jsonb)
          where organization_id = $1 and lead_id = $2 and data ? 'message'`,
        [organizationId, leadId],
      );
    },
  };
}

export function sqlBookings(client: SqlClient): BookingStore {
  return {
    async insert(record) {
      await insertRow(client, 'bookings', record);
    },
    async get(campaignId, id) {
      const [row] = await client.query<BookingRecord>('select * from bookings where campaign_id = $1 and id = $2', [
        campaignId,
        id,
      ]);
      return row ?? null;
    },
    async update(campaignId, id, patch) {
      return updateRow<BookingRecord>(client, 'bookings', { campaign_id: campaignId, id }, patch);
    },
    async listForCampaign(campaignId, filter = {}) {
      // Each kind is limited on its own (the newest of each), then the two are merged.
      const ofKind = (kind: string) => `(select * from bookings
          where campaign_id = $1 and kind = '${kind}' and ($2::timestamptz is null or booked_at >= $2)
          order by booked_at desc, id desc limit $3)`;
      return client.query<BookingRecord>(
        `select * from (${ofKind('meeting')} union all ${ofKind('confirmation')}) b order by booked_at desc, id desc`,
        [campaignId, filter.since ?? null, filter.limitPerKind ?? null],
      );
    },
    async eraseLead(organizationId, leadId) {
      await client.query(
        'update bookings set invitee_name = null, invitee_email = null where organization_id = $1 and lead_id = $2',
        [organizationId, leadId],
      );
    },
  };
}
