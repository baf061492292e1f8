/** The API's Booking object from a booking record and its lead. */
import { toApiTime } from '../domain/clock.ts';
import type { Schemas } from '../openapi/types.ts';
import type { BookingRecord, LeadRecord } from '../store/records.ts';

/**
 * `lead` is the booking's live lead, or null once it was deleted: then the invitee's name
 * and email, personal data of the deleted lead, are left out too.
 */
export function bookingView(record: BookingRecord, lead: LeadRecord | null): Schemas['Booking'] {
  return {
    id: record.id,
    kind: record.kind,
    sequence_lead_id: record.enrolment_id,
    lead: lead
      ? {
          id: lead.id,
          first_name: lead.first_name,
          last_name: lead.last_name,
          email: lead.email,
          company: lead.company,
        }
      : null,
    booked_at: toApiTime(record.booked_at),
    start_time: toApiTime(record.start_time),
    status: record.status,
    invitee_name: lead ? record.invitee_name : null,
    invitee_email: lead ? record.invitee_email : null,
    canceled_at: toApiTime(record.canceled_at),
    rescheduled: record.rescheduled,
    confirmed_by: record.confirmed_by,
  };
}
