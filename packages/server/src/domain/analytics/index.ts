/** The analytics reports: pure functions from a campaign's enrolments, events and bookings. */
export { abCohorts, abCohortsFrom } from './ab-cohorts.ts';
export { analysisFrom, analysisWindow, campaignAnalysis } from './analysis.ts';
export { dailyStats, dailyStatsFrom } from './daily-stats.ts';
export { factRules } from './facts.ts';
export { firstFactDaysOf } from './first-fact-days.ts';
export { personalizationFrom, personalizationQuality, placeholderFills } from './personalization.ts';
export { messageKindsCounted, placeholderFillSumsOf } from './placeholder-fill-sums.ts';
export type { AnalyticsData, AnalyticsWindow, CountedBooking } from './population.ts';
export { senderBreakdown, senderBreakdownFrom, senderRules, senderSumsOf } from './senders.ts';
export { type SequenceContext, stepFunnel, stepFunnelKinds } from './step-funnel.ts';
