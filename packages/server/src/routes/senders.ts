/** `PUT /campaigns/{campaign_id}/senders`: replace the sender accounts a campaign sends from. */
import { ApiError } from '../http/api-error.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

export const senderHandlers: PartialHandlers = {
  async replaceSenders({ path, body, auth, now }, { store }) {
    const organizationId = auth.organization.id;
    const ids = body.account_ids;
    return store.transaction(async (tx) => {
      const campaign = await findCampaign(tx, organizationId, path.campaign_id, { forUpdate: true });
      // Locking the accounts makes this check and an activation of another campaign with
      // one of them take turns, so neither can miss the other.
      const accounts = await tx.accounts.getMany(organizationId, ids, { forUpdate: true });
      const found = new Map(accounts.map((account) => [account.id, account]));

      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length > 0) {
        throw new ApiError(
          400,
          'INVALID_ACCOUNT',
          `Not an account of the organization: ${unknown.join(', ')}. Use the id values from GET /v1/accounts.`,
          { details: { account_ids: unknown } },
        );
      }
      const disconnected = accounts.filter((account) => account.status !== 'connected');
      if (disconnected.length > 0) {
        const list = disconnected.map((a) => `${a.id} (${a.label})`).join(', ');
        throw new ApiError(
          409,
          'ACCOUNT_NOT_CONNECTED',
          `${disconnected.length === 1 ? 'Account' : 'Accounts'} ${list} ${disconnected.length === 1 ? 'is' : 'are'} disconnected. Reconnect through POST /v1/accounts/connect-link, or assign connected accounts.`,
          { details: { account_ids: disconnected.map((a) => a.id) } },
        );
      }
      const conflicts = await tx.campaigns.findActiveUsingAccounts(organizationId, ids, campaign.id);
      if (conflicts.length > 0) {
        const list = conflicts
          .map(
            (c) =>
              `${c.account_id} (${found.get(c.account_id)?.label}) already sends for the active campaign ${c.campaign_name}`,
          )
          .join('; ');
        throw new ApiError(
          409,
          'ACCOUNT_IN_USE',
          `Account ${list}. An account sends for one active campaign at a time: assign another account, or deactivate that campaign first.`,
          { details: { conflicts } },
        );
      }

      await tx.campaigns.update(organizationId, campaign.id, { enabled_accounts: ids, updated_at: now.toISOString() });
      return {
        status: 200,
        body: {
          success: true,
          message: `${ids.length} sender account${ids.length === 1 ? '' : 's'} assigned`,
          campaign_id: campaign.id,
          enabled_accounts: ids.map((id) => {
            const account = found.get(id);
            if (!account) throw new Error(`account ${id} checked above`);
            return { id: account.id, platform: account.platform, label: account.label };
          }),
        },
      };
    });
  },
};
