/**
 * The sender account a connect link adds, or the change that reconnects one. This reference
 * server signs in to nothing (no LinkedIn, no mail server): its hosted page stands in for
 * that sign-in, as a payment provider's test-mode pages do. What a real sign-in would bring
 * comes from the page's form (the address, the name, the username), and the rest is what
 * the demo seed gives its accounts.
 */
import type { SenderAccountRecord } from '../store/records.ts';
import { randomBase62 } from './random.ts';

/** What the user gives on the page for a new account. */
export type NewAccountFields =
  | { platform: 'email'; email: string; label: string }
  | { platform: 'linkedin'; label: string; platform_username: string };

/** Messages a day a new account may send: the seed's, a cautious start for a new sender. */
export const newAccountDailyLimits = { email: 50, linkedin: 40 } as const;

/**
 * The domain check of a mailbox connected here. No DNS is read, so the sandbox records the
 * outcome a well-set-up domain gets; `null` would mean "not checked yet", which the preflight
 * tells the user to fix by reconnecting (domain/preflight-senders.ts).
 */
const sandboxDomainCheck = { spf: true, dkim: true, dmarc: true } as const;

/** `acc_em_` or `acc_li_` and 12 random base62 characters (about 71 bits): IDs are unique across organizations. */
export function newAccountId(platform: SenderAccountRecord['platform']): string {
  return `acc_${platform === 'email' ? 'em' : 'li'}_${randomBase62(12)}`;
}

/** The connected account a link of `organizationId` adds, at `at`. */
export function newConnectedAccount(organizationId: string, fields: NewAccountFields, at: string): SenderAccountRecord {
  const common = {
    id: newAccountId(fields.platform),
    organization_id: organizationId,
    label: fields.label,
    status: 'connected' as const,
    daily_limit: newAccountDailyLimits[fields.platform],
    connected_at: at,
    created_at: at,
  };
  if (fields.platform === 'email') {
    // The mailbox login is its address, as for the seed's mailboxes.
    return {
      ...common,
      platform: 'email',
      email: fields.email,
      platform_username: fields.email,
      email_auth: { ...sandboxDomainCheck },
    };
  }
  return {
    ...common,
    platform: 'linkedin',
    email: null,
    platform_username: fields.platform_username,
    email_auth: null,
  };
}

/**
 * What reconnecting `account` at `at` changes: connected, since `at`. Its daily limit stays,
 * and so does a domain check already made (signing in again does not change the domain's
 * DNS records); a mailbox never checked is checked now.
 */
export function reconnection(
  account: SenderAccountRecord,
  at: string,
): Pick<SenderAccountRecord, 'status' | 'connected_at' | 'email_auth'> {
  const emailAuth =
    account.platform === 'email' ? (account.email_auth ?? { ...sandboxDomainCheck }) : account.email_auth;
  return { status: 'connected', connected_at: at, email_auth: emailAuth };
}

/**
 * Who the account `fields` would add sends as: the mailbox's address, or the LinkedIn
 * username. One sender connected twice would send twice over its daily limit, so a link that
 * adds a sender the organization has (in any case: `SenderAccountStore.findSender`) is
 * refused, and the page says to reconnect that account (found by a review: two links made two
 * accounts of one mailbox; then by a test: two links submitted at once did too).
 */
export function newSenderIdentity(fields: NewAccountFields): string {
  return fields.platform === 'email' ? fields.email : fields.platform_username;
}
