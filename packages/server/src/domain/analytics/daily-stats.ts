/**
 * `GET /campaigns/{id}/daily-stats`: the analysis's counts spread over UTC days. Each lead
 * counts on the day of its first event of a kind inside the window, so every column summed
 * over the days equals the analysis count of the same window and arm.
 */
import type { Schemas } from '../../openapi/types.ts';
import type { FirstFactDays } from '../../store/types.ts';
import { type Counted, firstFactDaysOf, tally } from './first-fact-days.ts';
import { type AnalyticsData, type AnalyticsWindow, inVariation } from './population.ts';

type DailyStat = Schemas['DailyStat'];
type Column = Exclude<keyof DailyStat, 'date'>;

/** The fact each column counts; `meetings` counts bookings. */
const columns: ReadonlyArray<[Column, Counted]> = [
  ['emails_sent', 'email_sent'],
  ['emails_opened', 'email_opened'],
  ['connection_requests', 'connection_requested'],
  ['connections_accepted', 'connection_accepted'],
  ['linkedin_messages', 'linkedin_message_sent'],
  ['replies', 'replied'],
  ['positive_replies', 'positive'],
  ['meetings', 'meeting'],
];

export function dailyStats(data: AnalyticsData, window: AnalyticsWindow): DailyStat[] {
  return dailyStatsFrom(firstFactDaysOf(data, window.from), window);
}

/** The daily stats from the campaign's sums for `window.from` (`ActivityStore.firstFactDays`). */
export function dailyStatsFrom(summary: FirstFactDays, window: AnalyticsWindow): DailyStat[] {
  const selected = tally(summary, (cohort) => inVariation(cohort, window.variation));
  const days = new Map<string, DailyStat>();
  for (const [column, fact] of columns) {
    for (const [date, leads] of selected.byDay(fact)) {
      const day = days.get(date) ?? emptyDay(date);
      day[column] += leads;
      days.set(date, day);
    }
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

function emptyDay(date: string): DailyStat {
  return {
    date,
    emails_sent: 0,
    emails_opened: 0,
    connection_requests: 0,
    connections_accepted: 0,
    linkedin_messages: 0,
    replies: 0,
    positive_replies: 0,
    meetings: 0,
  };
}
