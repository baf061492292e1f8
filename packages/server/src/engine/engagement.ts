/**
 * Simulated engagement (sandbox): what a prospect does that is not a reply. An open or an
 * accepted connection is an activity event on the account that sent the message; a meeting
 * booked from a calendar and a booking confirmed by the agent or a person are bookings, as
 * section 2 describes both kinds. Analytics count them like any other.
 */
import { validationError } from '../http/api-error.ts';
import type { ActivityKind, BookingRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { lastContact, leadBooking, leadEvent, type SandboxLead } from './sandbox-lead.ts';

export type EngagementKind = 'email_opened' | 'connection_accepted' | 'meeting_booked' | 'booking_confirmed';

export interface EngagementInput {
  kind: EngagementKind;
  start_time?: string;
  invitee_name?: string;
  invitee_email?: string;
  confirmed_by?: 'agent' | 'person';
}

export async function recordEngagement(
  store: Store,
  found: SandboxLead,
  input: EngagementInput,
  at: string,
): Promise<{ booking: BookingRecord | null }> {
  const { lead } = found;
  if (input.kind === 'email_opened' || input.kind === 'connection_accepted') {
    const answers: ActivityKind = input.kind === 'email_opened' ? 'email_sent' : 'connection_requested';
    const channel = input.kind === 'email_opened' ? 'email' : 'linkedin';
    const what = input.kind === 'email_opened' ? 'an email' : 'a connection request';
    const contact = lastContact(found, channel, [answers], what);
    await store.activity.insert(
      leadEvent(found, { kind: input.kind, channel, account_id: contact.account_id, occurred_at: at, data: {} }),
    );
    return { booking: null };
  }
  let booking: BookingRecord;
  if (input.kind === 'meeting_booked') {
    if (input.start_time === undefined) {
      throw validationError([
        { field: 'body.start_time', message: 'is required when kind is meeting_booked', type: 'required' },
      ]);
    }
    const name = [lead.first_name, lead.last_name].filter(Boolean).join(' ');
    booking = leadBooking(found, at, {
      kind: 'meeting',
      start_time: new Date(input.start_time).toISOString(),
      status: 'active',
      invitee_name: input.invitee_name ?? (name === '' ? null : name),
      invitee_email: input.invitee_email ?? lead.email,
      rescheduled: false,
    });
  } else {
    booking = leadBooking(found, at, { kind: 'confirmation', confirmed_by: input.confirmed_by ?? 'agent' });
  }
  await store.bookings.insert(booking);
  return { booking };
}
