/**
 * `GET /campaigns/{id}/ab-cohorts`: one cohort per arm, each the arm's `by_variation` funnel
 * of the analysis for the same window, so the three add up to the analysis's funnel.
 */
import type { Schemas } from '../../openapi/types.ts';
import type { FirstFactDays } from '../../store/types.ts';
import { analysisFrom } from './analysis.ts';
import { firstFactDaysOf } from './first-fact-days.ts';
import { type AnalyticsData, cohorts } from './population.ts';

export function abCohorts(data: AnalyticsData, from: string | null): Array<Schemas['AbCohort']> {
  return abCohortsFrom(firstFactDaysOf(data, from), from);
}

/** The cohorts from the campaign's sums for `from` (`ActivityStore.firstFactDays`). */
export function abCohortsFrom(summary: FirstFactDays, from: string | null): Array<Schemas['AbCohort']> {
  const { by_variation } = analysisFrom(summary, { from, variation: 'all' });
  return cohorts.map((variation) => {
    const { funnel } = by_variation[variation];
    return {
      variation,
      leads: funnel.enrolled ?? 0,
      contacted: funnel.contacted ?? 0,
      replied: funnel.replied ?? 0,
      positive: funnel.positive ?? 0,
      meetings: funnel.meetings ?? 0,
      reply_rate_pct: funnel.reply_rate_pct,
      positive_rate_pct: funnel.positive_rate_pct,
      meeting_rate_pct: funnel.meeting_rate_pct,
    };
  });
}
