/** Memory implementations of the activity and booking stores. */
import type { BookingRecord } from '../records.ts';
import { type ActivityStore, type BookingStore, decidesPath } from '../types.ts';
import { enrolmentsInOrder, instant, oldestEventFirst } from './activity-order.ts';
import { memoryFirstFactDays } from './first-fact-days.ts';
import { memoryPlaceholderFillSums } from './placeholder-fill-sums.ts';
import { memorySenderSums } from './sender-sums.ts';
import { markNotKnown } from './leads.ts';
import type { MemoryState } from './state.ts';
import { compareText, patchRow } from './table.ts';
import { UniqueViolation, uniqueConstraints } from '../errors.ts';

const newestBookingFirst = (a: BookingRecord, b: BookingRecord) =>
  instant(b.booked_at) - instant(a.booked_at) || compareText(b.id, a.id);

export function memoryActivity(state: MemoryState): ActivityStore {
  return {
    async insert(record) {
      if (record.step_id !== null) {
        const ran = state.activity.whereIndexed('enrolment', record.enrolment_id, (e) => e.step_id === record.step_id);
        if (ran.length > 0) throw new UniqueViolation(uniqueConstraints.stepRun);
      }
      state.activity.set(record.id, record);
      if (decidesPath(record) && state.enrolments.has(record.enrolment_id)) markNotKnown(state, record.enrolment_id);
    },
    async listForCampaign(campaignId, filter = {}) {
      const from = filter.from === undefined ? undefined : instant(filter.from);
      const kinds = filter.kinds ? new Set(filter.kinds) : null;
      return state.activity
        .whereIndexed(
          'campaign',
          campaignId,
          (e) => (from === undefined || instant(e.occurred_at) >= from) && (kinds === null || kinds.has(e.kind)),
        )
        .sort(oldestEventFirst);
    },
    async listProgressEvents(campaignId, filter) {
      const kinds = new Set(filter.kinds);
      return state.activity
        .whereIndexed('campaign', campaignId, (e) => kinds.has(e.kind))
        .sort(oldestEventFirst)
        .map(({ id, enrolment_id, kind, occurred_at, step_id, account_id, channel, data }) => ({
          id,
          enrolment_id,
          kind,
          occurred_at,
          step_id,
          account_id,
          channel,
          data,
        }));
    },
    async countByAccount(accountIds, filter) {
      const accounts = new Set(accountIds);
      const kinds = new Set(filter.kinds);
      const from = instant(filter.from);
      const to = instant(filter.to);
      const counts = new Map<string, number>();
      for (const event of state.activity.where(
        (e) =>
          e.account_id !== null &&
          accounts.has(e.account_id) &&
          kinds.has(e.kind) &&
          instant(e.occurred_at) >= from &&
          instant(e.occurred_at) < to,
      )) {
        const account = event.account_id as string;
        counts.set(account, (counts.get(account) ?? 0) + 1);
      }
      return counts;
    },
    async listForEnrolment(enrolmentId, filter = {}) {
      const kinds = filter.kinds ? new Set(filter.kinds) : null;
      return state.activity
        .whereIndexed('enrolment', enrolmentId, (e) => kinds === null || kinds.has(e.kind))
        .sort(oldestEventFirst);
    },
    async listForEnrolments(enrolmentIds) {
      return [...new Set(enrolmentIds)]
        .flatMap((enrolmentId) => state.activity.whereIndexed('enrolment', enrolmentId))
        .sort(oldestEventFirst);
    },
    async listEnrolments(campaignId) {
      return enrolmentsInOrder(state, campaignId);
    },
    async firstFactDays(campaignId, query) {
      return memoryFirstFactDays(state, campaignId, query);
    },
    async placeholderFillSums(campaignId, query) {
      return memoryPlaceholderFillSums(state, campaignId, query);
    },
    async senderSums(campaignId, query) {
      return memorySenderSums(state, campaignId, query);
    },
    async eraseLead(organizationId, leadId) {
      const replies = state.activity.whereIndexed(
        'lead',
        leadId,
        (e) => e.organization_id === organizationId && e.data.message !== undefined,
      );
      for (const event of replies) patchRow(state.activity, event.id, { data: { ...event.data, message: null } });
    },
  };
}

export function memoryBookings(state: MemoryState): BookingStore {
  return {
    async insert(record) {
      state.bookings.set(record.id, record);
    },
    async get(campaignId, id) {
      const booking = state.bookings.get(id);
      return booking && booking.campaign_id === campaignId ? booking : null;
    },
    async update(campaignId, id, patch) {
      const booking = state.bookings.get(id);
      return booking && booking.campaign_id === campaignId ? patchRow(state.bookings, id, patch) : null;
    },
    async listForCampaign(campaignId, filter = {}) {
      const since = filter.since === undefined ? undefined : instant(filter.since);
      const rows = state.bookings
        .where((b) => b.campaign_id === campaignId && (since === undefined || instant(b.booked_at) >= since))
        .sort(newestBookingFirst);
      const limit = filter.limitPerKind;
      if (limit === undefined) return rows;
      const taken = { meeting: 0, confirmation: 0 };
      return rows.filter((b) => ++taken[b.kind] <= limit);
    },
    async eraseLead(organizationId, leadId) {
      const rows = state.bookings.where((b) => b.organization_id === organizationId && b.lead_id === leadId);
      for (const booking of rows) patchRow(state.bookings, booking.id, { invitee_name: null, invitee_email: null });
    },
  };
}
