/**
 * The activation preflight: the eleven checks of the `Preflight` schema, as pure rules over
 * data the caller gathered. `GET /campaigns/{id}/preflight` reports the verdict and
 * `PATCH /campaigns/{id}` with `is_active: true` enforces it; both call `evaluatePreflight`,
 * so the rule exists once.
 */
import { contentChecks } from './preflight-content.ts';
import {
  type CheckResult,
  checkResult,
  plural,
  type Preflight,
  type PreflightInput,
  type PreflightIssue,
} from './preflight-report.ts';
import { senderChecks } from './preflight-senders.ts';

export type { Preflight, PreflightInput, PreflightIssue } from './preflight-report.ts';

export function evaluatePreflight(input: PreflightInput): Preflight {
  const results = [
    ...contentChecks(input),
    ...senderChecks(input),
    enrolledLeadsCheck(input),
    subscriptionCheck(input),
  ];
  const all = results.flatMap((result) => result.issues);
  // Blocking issues first, each group in check order: what must be fixed leads the list.
  const issues = [...all.filter((i) => i.severity === 'blocking'), ...all.filter((i) => i.severity === 'warning')];
  const blocking = issues.filter((i) => i.severity === 'blocking').length;
  return {
    success: true,
    campaign_id: input.campaign.id,
    ok: blocking === 0,
    blocking_count: blocking,
    warning_count: issues.length - blocking,
    checks: results.map((result) => result.check),
    issues,
  };
}

function enrolledLeadsCheck(input: PreflightInput): CheckResult {
  const issues: PreflightIssue[] = [];
  if (input.enrolledLeads === 0) {
    issues.push({
      code: 'NO_LEADS',
      severity: 'blocking',
      message: 'No lead is enrolled in the campaign.',
      fix: "Enrol leads with POST /v1/leads and this campaign's campaign_id.",
    });
  }
  return checkResult(
    { id: 'enrolled_leads', label: 'Enrolled leads', tab: 'leads', route: 'POST /v1/leads' },
    issues,
    input.enrolledLeads === 0 ? 'No lead is enrolled.' : `${plural(input.enrolledLeads, 'lead')} enrolled.`,
  );
}

function subscriptionCheck(input: PreflightInput): CheckResult {
  const issues: PreflightIssue[] = [];
  if (!input.subscriptionActive) {
    issues.push({
      code: 'SUBSCRIPTION_INACTIVE',
      severity: 'blocking',
      message: "The organization's subscription is not active; no campaign sends until it is.",
      fix: "Renew the organization's subscription in the application's billing settings.",
    });
  }
  return checkResult(
    { id: 'subscription', label: 'Subscription', tab: 'billing', route: null },
    issues,
    input.subscriptionActive
      ? "The organization's subscription is active."
      : "The organization's subscription is not active.",
  );
}
