/** Tag Accounts: list the organization's sender accounts, and create a connect link. */
import { toApiTime } from '../domain/clock.ts';
import {
  connectLinkExpiry,
  connectLinkUrl,
  connectRedirectProblem,
  generateConnectToken,
} from '../domain/connect-links.ts';
import { ApiError, validationError } from '../http/api-error.ts';
import type { ConnectLinkRecord } from '../store/records.ts';
import { accountView } from '../views/account.ts';
import { pageEnvelope, pageRequest } from './pagination.ts';
import type { PartialHandlers } from './registry.ts';

const platformNames = { email: 'an email', linkedin: 'a LinkedIn' } as const;

export const accountHandlers: PartialHandlers = {
  async listAccounts({ query, auth }, { store }) {
    const page = pageRequest(query, 500);
    const result = await store.accounts.list(auth.organization.id, {
      ...page,
      platform: query.platform,
      status: query.status,
    });
    const uses = await store.accounts.listCampaignUses(
      auth.organization.id,
      result.items.map((account) => account.id),
    );
    const campaignIds = (accountId: string) => uses.filter((u) => u.account_id === accountId).map((u) => u.campaign_id);
    const accounts = { ...result, items: result.items.map((account) => accountView(account, campaignIds(account.id))) };
    return { status: 200, body: pageEnvelope('accounts', accounts, page, 'Accounts retrieved') };
  },

  async createAccountConnectLink({ body, auth, now, origin }, { store }) {
    const redirectProblem = body.redirect_url ? connectRedirectProblem(body.redirect_url) : null;
    if (redirectProblem !== null) {
      throw validationError([{ field: 'body.redirect_url', message: redirectProblem, type: 'format' }]);
    }
    const accountId = body.account_id ?? null;
    if (accountId !== null) {
      const account = await store.accounts.get(auth.organization.id, accountId);
      if (!account || account.platform !== body.platform) {
        throw new ApiError(
          400,
          'INVALID_ACCOUNT',
          `${accountId} is not ${platformNames[body.platform]} account of the organization. ` +
            'List your accounts with GET /v1/accounts, or leave out account_id to connect a new one.',
          { details: { account_ids: [accountId] } },
        );
      }
    }
    const link: ConnectLinkRecord = {
      token: generateConnectToken(),
      organization_id: auth.organization.id,
      platform: body.platform,
      account_id: accountId,
      redirect_url: body.redirect_url ?? null,
      expires_at: connectLinkExpiry(now).toISOString(),
      used_at: null,
      created_at: now.toISOString(),
    };
    await store.accounts.insertConnectLink(link);
    return {
      status: 201,
      body: {
        success: true,
        message: 'Connect link created; it is valid for 1 hour and can be used once.',
        url: connectLinkUrl(origin, link.token),
        expires_at: toApiTime(link.expires_at),
      },
    };
  },
};
