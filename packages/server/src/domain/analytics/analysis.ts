/**
 * `GET /campaigns/{id}/analysis`: the groups of section 2 over a window and an arm, and the
 * same `leads`, `funnel` and `replies` per arm in `by_variation`.
 */
import type { Schemas } from '../../openapi/types.ts';
import { toApiTime } from '../clock.ts';
import type { FirstFactDays } from '../../store/types.ts';
import { firstFactDaysOf, type Tally, tally } from './first-fact-days.ts';
import { type AnalyticsData, type AnalyticsWindow, cohorts, inVariation, percent } from './population.ts';

type CampaignAnalysis = Schemas['CampaignAnalysis'];
type VariationAnalysis = Schemas['VariationAnalysis'];

export function campaignAnalysis(data: AnalyticsData, window: AnalyticsWindow): CampaignAnalysis {
  return analysisFrom(firstFactDaysOf(data, window.from), window);
}

/** The analysis from the campaign's sums for `window.from` (`ActivityStore.firstFactDays`). */
export function analysisFrom(summary: FirstFactDays, window: AnalyticsWindow): CampaignAnalysis {
  const selected = tally(summary, (cohort) => inVariation(cohort, window.variation));
  const byCohort = (cohort: string) => variationAnalysis(tally(summary, (other) => other === cohort));
  const [a, b, unassigned] = cohorts.map(byCohort) as [VariationAnalysis, VariationAnalysis, VariationAnalysis];
  const emailSent = selected.count('email_sent');
  const emailOpened = selected.count('email_opened');
  const requests = selected.count('connection_requested');
  const accepted = selected.count('connection_accepted');
  return {
    ...variationAnalysis(selected),
    channels: {
      email: {
        sent: emailSent,
        opened: emailOpened,
        open_rate_pct: percent(emailOpened, emailSent),
        replied_leads: selected.count('email_replied'),
        positive_leads: selected.count('email_positive'),
      },
      linkedin: {
        requests,
        accepted,
        accept_rate_pct: percent(accepted, requests),
        connected_leads: selected.count('connected'),
        messages: selected.count('linkedin_message_sent'),
        replied_leads: selected.count('linkedin_replied'),
        positive_leads: selected.count('linkedin_positive'),
      },
    },
    window: analysisWindow(window),
    by_variation: { a, b, unassigned },
  };
}

/** The `window` every analytics answer carries: `to` null (up to now). */
export function analysisWindow(window: AnalyticsWindow): Schemas['AnalysisWindow'] {
  return { from: window.from === null ? null : toApiTime(window.from), to: null, variation: window.variation };
}

/** `leads`, `funnel` and `replies` of a set of leads. */
export function variationAnalysis(leads: Tally): VariationAnalysis {
  const contacted = leads.count('contacted');
  const replied = leads.count('replied');
  const positive = leads.count('positive');
  const meetings = leads.count('meeting');
  return {
    leads: {
      active: leads.status('active'),
      completed: leads.status('completed'),
      enrolled: leads.enrolled,
      not_contacted: leads.status('not_contacted'),
      paused: leads.status('paused'),
    },
    funnel: {
      contacted,
      enrolled: leads.enrolled,
      replied,
      positive,
      meetings,
      reply_rate_pct: percent(replied, contacted),
      positive_rate_pct: percent(positive, contacted),
      meeting_rate_pct: percent(meetings, positive),
    },
    replies: {
      total: replied,
      positive,
      neutral: leads.count('neutral'),
      negative: leads.count('negative'),
      ooo: leads.count('ooo'),
    },
  };
}
