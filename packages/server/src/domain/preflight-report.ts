/**
 * What the preflight checks share: their input, the shape of one evaluated check, and the
 * wording helpers that keep details and messages consistent across checks.
 */
import type { Schemas } from '../openapi/types.ts';
import type { CampaignRecord, LeadRecord, SenderAccountRecord } from '../store/records.ts';
import type { PlaceholderAiField } from './placeholders.ts';

export type PreflightCheck = Schemas['PreflightCheck'];
export type PreflightIssue = Schemas['PreflightIssue'];
export type Preflight = Schemas['Preflight'];

/** Everything the preflight looks at, gathered by the caller (the rules do no I/O). */
export interface PreflightInput {
  campaign: Pick<CampaignRecord, 'id' | 'sequence' | 'enabled_accounts'>;
  /** Every AI field of the campaign, active or not. */
  aiFields: readonly PlaceholderAiField[];
  /** The assigned accounts that exist in the organization, in `enabled_accounts` order. */
  accounts: readonly SenderAccountRecord[];
  /** Assigned accounts that already send for another active campaign. */
  conflicts: ReadonlyArray<{ account_id: string; campaign_id: string; campaign_name: string }>;
  enrolledLeads: number;
  /** The enrolled leads' data, for the variables and coverage checks. */
  leads: ReadonlyArray<Partial<LeadRecord>>;
  subscriptionActive: boolean;
}

/** One evaluated check and the issues it found. */
export interface CheckResult {
  check: PreflightCheck;
  issues: PreflightIssue[];
}

/** The check's status from its issues: any blocking one fails it, any warning warns. */
export function statusOf(issues: readonly PreflightIssue[]): PreflightCheck['status'] {
  if (issues.some((i) => i.severity === 'blocking')) return 'fail';
  return issues.length > 0 ? 'warn' : 'pass';
}

export function checkResult(
  meta: { id: string; label: string; tab: string | null; route: string | null },
  issues: PreflightIssue[],
  detail: string,
): CheckResult {
  return { check: { ...meta, status: statusOf(issues), detail }, issues };
}

/** "a", "a and b", "a, b and c". */
export function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}
