/**
 * Each counted lead's first event of every kind inside the window: the one thing all reports
 * count. "Counting uses each lead's first event of a kind inside the window": a lead counts
 * once per fact, at the time (and with the account, step and data) of that first event.
 */
import { type ActivityEvent, byTime, connectionKinds, instant, messageKinds, replyClass } from '../activity.ts';
import { compareText, groupBy } from '../collections.ts';
import type { EnrolmentWithLeadRecord } from '../../store/records.ts';
import { type AnalyticsData, type Cohort, type CountedBooking, cohortOf, isCounted } from './population.ts';

export type Fact =
  | 'email_sent'
  | 'email_opened'
  | 'connection_requested'
  | 'connection_accepted'
  | 'connected'
  | 'linkedin_message_sent'
  | 'contacted'
  | 'replied'
  | 'positive'
  | 'neutral'
  | 'negative'
  | 'ooo'
  | 'email_replied'
  | 'email_positive'
  | 'linkedin_replied'
  | 'linkedin_positive';

const reply = (e: ActivityEvent) => e.kind === 'reply_received';
const positive = (e: ActivityEvent) => replyClass(e) === 'positive';

/** Which events establish each fact. */
export const factTests: Record<Fact, (event: ActivityEvent) => boolean> = {
  email_sent: (e) => e.kind === 'email_sent',
  email_opened: (e) => e.kind === 'email_opened',
  connection_requested: (e) => e.kind === 'connection_requested',
  connection_accepted: (e) => e.kind === 'connection_accepted',
  connected: (e) => connectionKinds.includes(e.kind),
  linkedin_message_sent: (e) => e.kind === 'linkedin_message_sent',
  contacted: (e) => messageKinds.includes(e.kind),
  replied: reply,
  positive,
  neutral: (e) => replyClass(e) === 'neutral',
  negative: (e) => replyClass(e) === 'negative',
  ooo: (e) => replyClass(e) === 'ooo',
  email_replied: (e) => reply(e) && e.channel === 'email',
  email_positive: (e) => positive(e) && e.channel === 'email',
  linkedin_replied: (e) => reply(e) && e.channel === 'linkedin',
  linkedin_positive: (e) => positive(e) && e.channel === 'linkedin',
};

const facts = Object.keys(factTests) as Fact[];

export interface LeadFacts {
  enrolment: EnrolmentWithLeadRecord;
  cohort: Cohort;
  /** Each fact's first event inside the window. */
  first: Partial<Record<Fact, ActivityEvent>>;
  /** The lead's first booking (either kind) inside the window, by `booked_at`. */
  meeting: CountedBooking | null;
  /** Every event of the lead, any time, oldest first. */
  events: ActivityEvent[];
}

/** The facts of every counted lead, in the order of `data.enrolments`. */
export function leadFacts(data: AnalyticsData, from: string | null): LeadFacts[] {
  const start = from === null ? Number.NEGATIVE_INFINITY : instant(from);
  const events = groupBy(byTime(data.events), (e) => e.enrolment_id);
  const bookings = groupBy(
    [...data.bookings].sort((a, b) => instant(a.booked_at) - instant(b.booked_at) || compareText(a.id, b.id)),
    (b) => b.enrolment_id,
  );
  return data.enrolments.filter(isCounted).map((enrolment) => {
    const all = events.get(enrolment.id) ?? [];
    const first: Partial<Record<Fact, ActivityEvent>> = {};
    for (const event of all) {
      if (instant(event.occurred_at) < start) continue;
      for (const fact of facts) if (first[fact] === undefined && factTests[fact](event)) first[fact] = event;
    }
    const meeting = (bookings.get(enrolment.id) ?? []).find((b) => instant(b.booked_at) >= start) ?? null;
    return { enrolment, cohort: cohortOf(enrolment), first, meeting, events: all };
  });
}

/** Leads having the fact. */
export function count(leads: readonly LeadFacts[], fact: Fact): number {
  return leads.filter((lead) => lead.first[fact] !== undefined).length;
}

export function countMeetings(leads: readonly LeadFacts[]): number {
  return leads.filter((lead) => lead.meeting !== null).length;
}
