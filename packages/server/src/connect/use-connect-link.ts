/**
 * Finishing a connect link: in one store transaction, the link is claimed (unused and
 * unexpired at that moment: of two submissions racing, exactly one gets it) and the account
 * is added, or the link's account reconnected. Any failure rolls both back, so the link stays
 * usable. The link's organization decides everything: the account is added to it, and only
 * its own account is reconnected.
 */
import { connectLinkState } from '../domain/connect-links.ts';
import {
  type NewAccountFields,
  newConnectedAccount,
  newSenderIdentity,
  reconnection,
} from '../domain/connected-account.ts';
import type { ConnectLinkRecord, SenderAccountRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';

export type ConnectOutcome =
  | { outcome: 'connected'; link: ConnectLinkRecord; account: SenderAccountRecord }
  /** Another submission came first (`used`), the hour ran out, or the link is gone. */
  | { outcome: 'used' | 'expired' | 'unknown' }
  /** The account the link reconnects is not the organization's (any more). */
  | { outcome: 'account_missing' }
  /** The organization was deactivated after the page was opened. */
  | { outcome: 'deactivated' }
  /** The organization has this sender already: reconnect that account instead. */
  | { outcome: 'already_connected'; account: SenderAccountRecord };

/** Thrown inside the transaction to roll the claim back when the account to reconnect is missing. */
class AccountMissing extends Error {}

/** Thrown inside the transaction to roll the claim back when the organization is no longer active. */
class Deactivated extends Error {}

/** Thrown inside the transaction to roll the claim back when the sender is already an account. */
class AlreadyConnected extends Error {
  constructor(readonly account: SenderAccountRecord) {
    super('already connected');
  }
}

/**
 * Uses the link `token` at `now`. `fields`: the new account's, for a link that adds one;
 * ignored for a link that reconnects (`account_id`).
 */
export async function useConnectLink(
  store: Store,
  token: string,
  fields: NewAccountFields | null,
  now: Date,
): Promise<ConnectOutcome> {
  const at = now.toISOString();
  try {
    return await store.transaction(async (tx): Promise<ConnectOutcome> => {
      const link = await tx.accounts.claimConnectLink(token, at);
      if (!link) {
        // Read after the claim failed: on SQL, after the transaction that took the link committed.
        const current = await tx.accounts.getConnectLink(token);
        if (!current) return { outcome: 'unknown' };
        const state = connectLinkState(current, now);
        return { outcome: state === 'usable' ? 'used' : state };
      }
      // Read again in the transaction, after the claim: the page checked it before the form came.
      if (!(await tx.organizations.get(link.organization_id))?.is_active) throw new Deactivated();
      if (link.account_id !== null) {
        // Locked, as an activation locks its senders: a reconnect and a launch run one after the other.
        const [account] = await tx.accounts.getMany(link.organization_id, [link.account_id], { forUpdate: true });
        if (!account || account.platform !== link.platform) throw new AccountMissing();
        const updated = await tx.accounts.update(link.organization_id, account.id, reconnection(account, at));
        if (!updated) throw new AccountMissing();
        return { outcome: 'connected', link, account: updated };
      }
      if (fields === null || fields.platform !== link.platform) {
        throw new TypeError(`useConnectLink: a link adding ${link.platform} account needs that platform's fields`);
      }
      // Locks that sender until the transaction ends: a link adding it at the same moment waits, then finds it.
      const same = await tx.accounts.findSender(link.organization_id, fields.platform, newSenderIdentity(fields));
      if (same) throw new AlreadyConnected(same);
      const account = newConnectedAccount(link.organization_id, fields, at);
      await tx.accounts.insert(account);
      await tx.accounts.recordConnectLinkAccount(link.token, account.id);
      return { outcome: 'connected', link, account };
    });
  } catch (error) {
    if (error instanceof AccountMissing) return { outcome: 'account_missing' };
    if (error instanceof Deactivated) return { outcome: 'deactivated' };
    if (error instanceof AlreadyConnected) return { outcome: 'already_connected', account: error.account };
    throw error;
  }
}
