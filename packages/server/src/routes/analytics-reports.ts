/**
 * Tag Analytics, the reports: analysis, daily stats, step funnel, senders, personalization
 * and A/B cohorts. All but the step funnel count from sums the store works out where the rows
 * are (`firstFactDays`, `placeholderFillSums`, `senderSums`); the step funnel reads the
 * campaign's enrolments and the events it walks once. Both go to the pure functions of
 * domain/analytics, which count them the same way.
 */
import {
  abCohortsFrom,
  type AnalyticsData,
  type AnalyticsWindow,
  analysisFrom,
  analysisWindow,
  dailyStatsFrom,
  factRules,
  messageKindsCounted,
  personalizationFrom,
  senderBreakdownFrom,
  senderRules,
  stepFunnel,
  stepFunnelKinds,
} from '../domain/analytics/index.ts';
import { parseDateFilter, parseVariation } from '../domain/date-filter.ts';
import type { FirstFactDays, Store } from '../store/types.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

/** The window from `date_filter` and `variation` (`400 INVALID_DATE_FILTER`, `INVALID_VARIATION`). */
function windowOf(query: { date_filter?: string | null; variation?: string | null }, now: Date): AnalyticsWindow {
  return { from: parseDateFilter(query.date_filter, now), variation: parseVariation(query.variation) };
}

/**
 * What the step funnel counts from: the campaign's enrolments and its events of the kinds the
 * funnel reads (`stepFunnelKinds`), all of them, since where a lead is in the sequence depends
 * on everything that happened to it; no bookings, which it never counts.
 */
async function funnelData(store: Store, campaignId: string): Promise<AnalyticsData> {
  const enrolments = await store.activity.listEnrolments(campaignId);
  const events = await store.activity.listProgressEvents(campaignId, { kinds: stepFunnelKinds });
  return { enrolments, events, bookings: [] };
}

/** The sums the analysis, daily stats and A/B cohorts count from (`firstFactDays`). */
function sumsOf(store: Store, campaignId: string, from: string | null): Promise<FirstFactDays> {
  return store.activity.firstFactDays(campaignId, { from, facts: factRules });
}

export const analyticsReportHandlers: PartialHandlers = {
  async getCampaignAnalysis({ path, query, auth, now }, { store }) {
    const window = windowOf(query, now);
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const summary = await sumsOf(store, campaign.id, window.from);
    return {
      status: 200,
      body: { success: true, campaign_id: campaign.id, analysis: analysisFrom(summary, window) },
    };
  },

  async getDailyStats({ path, query, auth, now }, { store }) {
    const window = windowOf(query, now);
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const summary = await sumsOf(store, campaign.id, window.from);
    return {
      status: 200,
      body: {
        success: true,
        campaign_id: campaign.id,
        window: analysisWindow(window),
        days: dailyStatsFrom(summary, window),
      },
    };
  },

  async getStepFunnel({ path, query, auth, now }, { store }) {
    const window = windowOf(query, now);
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const data = await funnelData(store, campaign.id);
    const steps = stepFunnel(data, window, {
      sequence: campaign.sequence,
      winner: campaign.ab_winner,
      activatedAt: campaign.activated_at,
      now: now.toISOString(),
    });
    return {
      status: 200,
      body: { success: true, campaign_id: campaign.id, window: analysisWindow(window), steps },
    };
  },

  async getSenderBreakdown({ path, query, auth, now }, { store }) {
    const window: AnalyticsWindow = { from: parseDateFilter(query.date_filter, now), variation: 'all' };
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    // A reply is credited to the account that last wrote to the lead, possibly before the window.
    const sums = await store.activity.senderSums(campaign.id, { from: window.from, ...senderRules });
    const accounts = await store.accounts.getMany(auth.organization.id, [
      ...new Set([...campaign.enabled_accounts, ...sums.map((sum) => sum.account_id)]),
    ]);
    const senders = senderBreakdownFrom(sums, campaign.enabled_accounts, accounts);
    return {
      status: 200,
      body: { success: true, campaign_id: campaign.id, window: analysisWindow(window), senders },
    };
  },

  async getPersonalizationQuality({ path, query, auth, now }, { store }) {
    const window: AnalyticsWindow = { from: parseDateFilter(query.date_filter, now), variation: 'all' };
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const sums = await store.activity.placeholderFillSums(campaign.id, {
      from: window.from,
      kinds: messageKindsCounted,
    });
    const quality = personalizationFrom(sums);
    return {
      status: 200,
      body: { success: true, campaign_id: campaign.id, window: analysisWindow(window), ...quality },
    };
  },

  async getAbCohorts({ path, query, auth, now }, { store }) {
    const window: AnalyticsWindow = { from: parseDateFilter(query.date_filter, now), variation: 'all' };
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const summary = await sumsOf(store, campaign.id, window.from);
    return {
      status: 200,
      body: {
        success: true,
        campaign_id: campaign.id,
        ab_testing_enabled: campaign.ab_testing_enabled,
        traffic_split: campaign.traffic_split,
        winner: campaign.ab_winner,
        window: analysisWindow(window),
        cohorts: abCohortsFrom(summary, window.from),
      },
    };
  },
};
