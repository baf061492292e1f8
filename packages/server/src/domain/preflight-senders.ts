/**
 * The preflight checks of who sends: `senders_assigned`, `senders_connected`,
 * `email_authentication`, `account_conflicts` and `account_limits`.
 */
import type { SenderAccountRecord } from '../store/records.ts';
import { type Channel, channelLabel, sequenceChannels } from './channels.ts';
import {
  type CheckResult,
  checkResult,
  listText,
  plural,
  type PreflightInput,
  type PreflightIssue,
} from './preflight-report.ts';
import { storedSequence } from './sequence-steps.ts';

const sendersRoute = 'PUT /v1/campaigns/{campaign_id}/senders';
/** Days within which the daily limits should reach every enrolled lead once. */
export const capacityWindowDays = 7;

export function senderChecks(input: PreflightInput): CheckResult[] {
  const sequence = storedSequence(input.campaign.sequence);
  const channels = sequence ? sequenceChannels(sequence) : [];
  return [
    assignedCheck(input, channels),
    connectedCheck(input),
    emailAuthCheck(input),
    conflictsCheck(input),
    limitsCheck(input, channels),
  ];
}

/** `Email account sam@… (acc_em_…)`, `LinkedIn account Sam Carter (acc_li_…)`. */
function describe(account: SenderAccountRecord): string {
  return `${account.platform === 'email' ? 'Email' : 'LinkedIn'} account ${account.label} (${account.id})`;
}

function assignedCheck(input: PreflightInput, channels: Channel[]): CheckResult {
  const meta = { id: 'senders_assigned', label: 'Senders assigned', tab: 'senders', route: sendersRoute };
  const issues: PreflightIssue[] = [];
  if (input.campaign.enabled_accounts.length === 0) {
    issues.push({
      code: 'NO_SENDERS',
      severity: 'blocking',
      message: 'No sender account is assigned to the campaign.',
      fix: `Assign accounts from GET /v1/accounts with ${sendersRoute}.`,
    });
    return checkResult(meta, issues, 'No sender account is assigned.');
  }
  const platforms = new Set(input.accounts.map((a) => a.platform));
  for (const channel of channels) {
    if (platforms.has(channel)) continue;
    issues.push({
      code: 'MISSING_CHANNEL_SENDER',
      severity: 'blocking',
      message: `The sequence has ${channelLabel[channel]} steps but no ${channelLabel[channel]} account is assigned.`,
      fix: `Assign a connected ${channelLabel[channel]} account with ${sendersRoute}.`,
    });
  }
  const assigned = input.accounts.map((a) => `${a.label} (${channelLabel[a.platform]})`);
  const uses =
    channels.length === 0
      ? 'the sequence uses no channel yet'
      : `the sequence uses ${listText(channels.map((c) => channelLabel[c]))}`;
  const verb = assigned.length === 1 ? 'is' : 'are';
  return checkResult(meta, issues, `${listText(assigned) || 'No known account'} ${verb} assigned; ${uses}.`);
}

function connectedCheck(input: PreflightInput): CheckResult {
  const meta = {
    id: 'senders_connected',
    label: 'Senders connected',
    tab: 'senders',
    route: 'POST /v1/accounts/connect-link',
  };
  const issues: PreflightIssue[] = [];
  const known = new Set(input.accounts.map((a) => a.id));
  for (const id of input.campaign.enabled_accounts) {
    if (known.has(id)) continue;
    // Only possible on data written before assignment was checked; it cannot send.
    issues.push({
      code: 'SENDER_DISCONNECTED',
      severity: 'blocking',
      message: `Account ${id} is not an account of the organization any more.`,
      fix: `Assign the campaign's accounts again with ${sendersRoute}.`,
    });
  }
  const down = input.accounts.filter((a) => a.status !== 'connected');
  for (const account of down) {
    issues.push({
      code: 'SENDER_DISCONNECTED',
      severity: 'blocking',
      message: `${describe(account)} is disconnected.`,
      fix: `Reconnect it with POST /v1/accounts/connect-link (account_id ${account.id}), or assign a connected ${channelLabel[account.platform]} account with ${sendersRoute}.`,
    });
  }
  let detail: string;
  if (input.campaign.enabled_accounts.length === 0) detail = 'No account is assigned.';
  else if (issues.length === 0) {
    detail =
      input.accounts.length === 1 ? 'The assigned account is connected.' : 'Every assigned account is connected.';
  } else detail = `${listText(issues.map((i) => i.message.replace(/\.$/, '')))}.`;
  return checkResult(meta, issues, detail);
}

function emailAuthCheck(input: PreflightInput): CheckResult {
  const meta = { id: 'email_authentication', label: 'Email authentication', tab: 'senders', route: null };
  const issues: PreflightIssue[] = [];
  const findings: string[] = [];
  const emailAccounts = input.accounts.filter((a) => a.platform === 'email');
  for (const account of emailAccounts) {
    const address = account.email ?? account.label;
    const domain = address.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : address;
    const auth = account.email_auth;
    if (!auth) {
      findings.push(`${address}: not checked yet`);
      issues.push({
        code: 'EMAIL_AUTH_FAILING',
        severity: 'warning',
        message: `SPF, DKIM and DMARC of ${domain} have not been checked; mail from ${address} may land in spam.`,
        fix: `Reconnect ${account.id} with POST /v1/accounts/connect-link so that its domain is checked.`,
      });
      continue;
    }
    const passing = (['spf', 'dkim', 'dmarc'] as const).filter((part) => auth[part]).map((p) => p.toUpperCase());
    const failing = (['spf', 'dkim', 'dmarc'] as const).filter((part) => !auth[part]).map((p) => p.toUpperCase());
    if (failing.length === 0) {
      findings.push(`${address}: SPF, DKIM and DMARC pass`);
      continue;
    }
    const passText = passing.length === 0 ? '' : `${listText(passing)} pass${passing.length === 1 ? 'es' : ''}; `;
    findings.push(`${address}: ${passText}${domain} fails ${listText(failing)}`);
    issues.push({
      code: 'EMAIL_AUTH_FAILING',
      severity: 'warning',
      message: `${domain} fails ${listText(failing)}; mail from ${address} is more likely to land in spam.`,
      fix: `Publish ${listText(failing.map(recordAdvice))} for ${domain}.`,
    });
  }
  const detail = emailAccounts.length === 0 ? 'No email account is assigned.' : `${findings.join('; ')}.`;
  return checkResult(meta, issues, detail);
}

function recordAdvice(part: string): string {
  if (part === 'SPF') return 'an SPF record that includes your mail provider';
  if (part === 'DKIM') return "a DKIM key from your mail provider's settings";
  return 'a DMARC record (for example v=DMARC1; p=none)';
}

function conflictsCheck(input: PreflightInput): CheckResult {
  const meta = { id: 'account_conflicts', label: 'Account conflicts', tab: 'senders', route: sendersRoute };
  const byId = new Map(input.accounts.map((a) => [a.id, a]));
  const issues: PreflightIssue[] = input.conflicts.map((conflict) => {
    const account = byId.get(conflict.account_id);
    const who = account ? describe(account) : `Account ${conflict.account_id}`;
    const platform = account ? channelLabel[account.platform] : 'sender';
    return {
      code: 'ACCOUNT_IN_USE',
      severity: 'blocking',
      message: `${who} already sends for the active campaign ${conflict.campaign_name} (${conflict.campaign_id}).`,
      fix: `Assign another ${platform} account with ${sendersRoute}, or deactivate ${conflict.campaign_name} first.`,
    };
  });
  const detail =
    issues.length === 0
      ? 'No assigned account sends for another active campaign.'
      : `${listText(input.conflicts.map((c) => `${byId.get(c.account_id)?.label ?? c.account_id} (${c.account_id}) already sends for the active campaign ${c.campaign_name}`))}.`;
  return checkResult(meta, issues, detail);
}

function limitsCheck(input: PreflightInput, channels: Channel[]): CheckResult {
  const meta = { id: 'account_limits', label: 'Account limits', tab: 'senders', route: sendersRoute };
  const issues: PreflightIssue[] = [];
  for (const account of input.accounts.filter((a) => a.daily_limit <= 0)) {
    issues.push({
      code: 'ACCOUNT_LIMIT_ZERO',
      severity: 'blocking',
      message: `${describe(account)} has a daily limit of 0 and sends nothing.`,
      fix: `Raise the account's daily limit, or assign another ${channelLabel[account.platform]} account with ${sendersRoute}.`,
    });
  }
  // Every enrolled lead should get its first touch on each channel within the window.
  const leads = input.enrolledLeads;
  if (leads > 0) {
    for (const channel of channels) {
      const daily = input.accounts
        .filter((a) => a.platform === channel)
        .reduce((sum, a) => sum + Math.max(0, a.daily_limit), 0);
      if (daily === 0 || daily * capacityWindowDays >= leads) continue;
      issues.push({
        code: 'LOW_SENDING_CAPACITY',
        severity: 'warning',
        message: `The ${channelLabel[channel]} accounts send ${daily} a day: reaching all ${plural(leads, 'enrolled lead')} takes ${Math.ceil(leads / daily)} days, more than a week.`,
        fix: `Assign more ${channelLabel[channel]} accounts with ${sendersRoute}, or enrol fewer leads at a time.`,
      });
    }
  }
  let detail: string;
  if (input.accounts.length === 0) detail = 'No account is assigned.';
  else if (issues.length > 0) detail = `${plural(issues.length, 'limit needs', 'limits need')} attention.`;
  else if (leads === 0) detail = 'No assigned account has a daily limit of zero.';
  else detail = 'The daily limits of the assigned accounts cover the enrolled leads within a week.';
  return checkResult(meta, issues, detail);
}
