/** Tag Analytics: the reports, the bookings list and the queue. */
import { analyticsReportHandlers } from './analytics-reports.ts';
import { bookingHandlers } from './bookings.ts';
import { queueHandlers } from './queue.ts';
import type { PartialHandlers } from './registry.ts';

export const analyticsHandlers: PartialHandlers = {
  ...analyticsReportHandlers,
  ...bookingHandlers,
  ...queueHandlers,
};
