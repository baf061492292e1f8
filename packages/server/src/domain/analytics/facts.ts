/**
 * Each counted lead's first event of every kind inside the window: the one thing all reports
 * count. "Counting uses each lead's first event of a kind inside the window": a lead counts
 * once per fact, at the time (and with the account, step and data) of that first event.
 */
import { type ActivityEvent, byTime, connectionKinds, instant, matchesRule, messageKinds } from '../activity.ts';
import { compareText, groupBy } from '../collections.ts';
import type { EnrolmentWithLeadRecord } from '../../store/records.ts';
import type { FactRule } from '../../store/types.ts';
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

/**
 * Which events establish each fact, as data: the SQL store counts from the same rules
 * (`ActivityStore.firstFactDays`) that `factTests` applies to the rows here.
 */
export const factRules: Readonly<Record<Fact, FactRule>> = {
  email_sent: { kinds: ['email_sent'] },
  email_opened: { kinds: ['email_opened'] },
  connection_requested: { kinds: ['connection_requested'] },
  connection_accepted: { kinds: ['connection_accepted'] },
  connected: { kinds: connectionKinds },
  linkedin_message_sent: { kinds: ['linkedin_message_sent'] },
  contacted: { kinds: messageKinds },
  replied: { kinds: ['reply_received'] },
  positive: { kinds: ['reply_received'], replyClass: 'positive' },
  neutral: { kinds: ['reply_received'], replyClass: 'neutral' },
  negative: { kinds: ['reply_received'], replyClass: 'negative' },
  ooo: { kinds: ['reply_received'], replyClass: 'ooo' },
  email_replied: { kinds: ['reply_received'], channel: 'email' },
  email_positive: { kinds: ['reply_received'], channel: 'email', replyClass: 'positive' },
  linkedin_replied: { kinds: ['reply_received'], channel: 'linkedin' },
  linkedin_positive: { kinds: ['reply_received'], channel: 'linkedin', replyClass: 'positive' },
};

/** Which events establish each fact. */
export const factTests = Object.fromEntries(
  Object.entries(factRules).map(([fact, rule]) => [fact, (event: ActivityEvent) => matchesRule(event, rule)]),
) as Record<Fact, (event: ActivityEvent) => boolean>;

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
