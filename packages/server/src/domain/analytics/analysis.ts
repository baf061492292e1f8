/**
 * `GET /campaigns/{id}/analysis`: the groups of section 2 over a window and an arm, and the
 * same `leads`, `funnel` and `replies` per arm in `by_variation`.
 */
import type { Schemas } from '../../openapi/types.ts';
import { toApiTime } from '../clock.ts';
import { count, countMeetings, type LeadFacts, leadFacts } from './facts.ts';
import { type AnalyticsData, type AnalyticsWindow, cohorts, inVariation, percent } from './population.ts';

type CampaignAnalysis = Schemas['CampaignAnalysis'];
type VariationAnalysis = Schemas['VariationAnalysis'];

export function campaignAnalysis(data: AnalyticsData, window: AnalyticsWindow): CampaignAnalysis {
  const all = leadFacts(data, window.from);
  const selected = all.filter((lead) => inVariation(lead.cohort, window.variation));
  const byCohort = (cohort: string) => variationAnalysis(all.filter((lead) => lead.cohort === cohort));
  const [a, b, unassigned] = cohorts.map(byCohort) as [VariationAnalysis, VariationAnalysis, VariationAnalysis];
  const emailSent = count(selected, 'email_sent');
  const emailOpened = count(selected, 'email_opened');
  const requests = count(selected, 'connection_requested');
  const accepted = count(selected, 'connection_accepted');
  return {
    ...variationAnalysis(selected),
    channels: {
      email: {
        sent: emailSent,
        opened: emailOpened,
        open_rate_pct: percent(emailOpened, emailSent),
        replied_leads: count(selected, 'email_replied'),
        positive_leads: count(selected, 'email_positive'),
      },
      linkedin: {
        requests,
        accepted,
        accept_rate_pct: percent(accepted, requests),
        connected_leads: count(selected, 'connected'),
        messages: count(selected, 'linkedin_message_sent'),
        replied_leads: count(selected, 'linkedin_replied'),
        positive_leads: count(selected, 'linkedin_positive'),
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
export function variationAnalysis(leads: readonly LeadFacts[]): VariationAnalysis {
  const status = (value: string) => leads.filter((lead) => lead.enrolment.status === value).length;
  const contacted = count(leads, 'contacted');
  const replied = count(leads, 'replied');
  const positive = count(leads, 'positive');
  const meetings = countMeetings(leads);
  return {
    leads: {
      active: status('active'),
      completed: status('completed'),
      enrolled: leads.length,
      not_contacted: status('not_contacted'),
      paused: status('paused'),
    },
    funnel: {
      contacted,
      enrolled: leads.length,
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
      neutral: count(leads, 'neutral'),
      negative: count(leads, 'negative'),
      ooo: count(leads, 'ooo'),
    },
  };
}
