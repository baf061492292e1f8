/** The analytics reports: pure functions from a campaign's enrolments, events and bookings. */
export { abCohorts } from './ab-cohorts.ts';
export { analysisWindow, campaignAnalysis } from './analysis.ts';
export { dailyStats } from './daily-stats.ts';
export { placeholderFills, personalizationQuality } from './personalization.ts';
export type { AnalyticsData, AnalyticsWindow, CountedBooking } from './population.ts';
export { senderBreakdown } from './senders.ts';
export { type SequenceContext, stepFunnel } from './step-funnel.ts';
