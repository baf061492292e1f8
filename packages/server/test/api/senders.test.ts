/** `PUT /campaigns/{campaign_id}/senders`: assignment and its three refusals, with details. */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, readyCampaign } from '../support/campaign-setup.ts';

interface Answer {
  message: string;
  campaign_id: string;
  enabled_accounts: Array<{ id: string; platform: string; label: string }>;
  error?: string;
  details?: {
    account_ids?: string[];
    conflicts?: Array<{ account_id: string; campaign_id: string; campaign_name: string | null }>;
  };
}

describeBackends('campaign senders', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store());
  };
  const assign = (id: string, accountIds: unknown) =>
    api.call<Answer>('PUT', `/v1/campaigns/${id}/senders`, { body: { account_ids: accountIds } });
  const assigned = async (id: string) => (await store().campaigns.get(api.organizationId, id))?.enabled_accounts;

  it('replaces the assigned set and lists the accounts in the order given', async () => {
    await setup();
    const { linkedin, email, linkedin2 } = await demoAccounts(api);
    const id = await createCampaign(api);
    await assign(id, [linkedin2.id]);
    const answer = await assign(id, [email.id, linkedin.id]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: '2 sender accounts assigned',
      campaign_id: id,
      enabled_accounts: [
        { id: email.id, platform: 'email', label: email.label },
        { id: linkedin.id, platform: 'linkedin', label: linkedin.label },
      ],
    });
    const read = await api.call<{ campaign: { enabled_accounts: string[] } }>('GET', `/v1/campaigns/${id}`);
    expect(read.body.campaign.enabled_accounts).toEqual([email.id, linkedin.id]);
  });

  it('answers INVALID_ACCOUNT for unknown and other organizations’ accounts, changing nothing', async () => {
    await setup();
    const { email } = await demoAccounts(api);
    const other = await createTestApi(store());
    const foreign = (await demoAccounts(other)).linkedin;
    const id = await createCampaign(api);
    await assign(id, [email.id]);
    const answer = await assign(id, [email.id, 'acc_li_unknown', foreign.id]);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('INVALID_ACCOUNT');
    expect(answer.body.details?.account_ids).toEqual(['acc_li_unknown', foreign.id]);
    expect(await assigned(id)).toEqual([email.id]);
  });

  it('answers ACCOUNT_NOT_CONNECTED for a disconnected account', async () => {
    await setup();
    const { linkedin, disconnectedEmail } = await demoAccounts(api);
    const id = await createCampaign(api);
    const answer = await assign(id, [linkedin.id, disconnectedEmail.id]);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe('ACCOUNT_NOT_CONNECTED');
    expect(answer.body.details?.account_ids).toEqual([disconnectedEmail.id]);
    expect(answer.body.message).toContain('POST /v1/accounts/connect-link');
    expect(await assigned(id)).toEqual([]);
  });

  it('answers ACCOUNT_IN_USE for an account of another active campaign, on drafts and active campaigns', async () => {
    await setup();
    const { email, linkedin } = await demoAccounts(api);
    const live = await readyCampaign(api, [email.id]);
    await api.call('PATCH', `/v1/campaigns/${live}`, { body: { name: 'Live one', is_active: true } });
    const draft = await createCampaign(api);
    const answer = await assign(draft, [linkedin.id, email.id]);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe('ACCOUNT_IN_USE');
    expect(answer.body.details?.conflicts).toEqual([
      { account_id: email.id, campaign_id: live, campaign_name: 'Live one' },
    ]);
    expect(await assigned(draft)).toEqual([]);
    // The active campaign itself may keep (re-assign) its own account.
    expect((await assign(live, [email.id, linkedin.id])).status).toBe(200);
    // Deactivating the other campaign frees the account.
    await api.call('PATCH', `/v1/campaigns/${live}`, { body: { is_active: false } });
    expect((await assign(draft, [email.id])).status).toBe(200);
  });

  it('validates the body', async () => {
    await setup();
    const { email } = await demoAccounts(api);
    const id = await createCampaign(api);
    for (const ids of [[], [email.id, email.id], [''], 'acc', undefined]) {
      const answer = await assign(id, ids);
      expect(answer.status, JSON.stringify(ids)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it('hides another organization’s campaign', async () => {
    await setup();
    const id = await createCampaign(api);
    const other = await createTestApi(store());
    const { email } = await demoAccounts(other);
    const answer = await other.call<Answer>('PUT', `/v1/campaigns/${id}/senders`, {
      body: { account_ids: [email.id] },
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('CAMPAIGN_NOT_FOUND');
    expect(await assigned(id)).toEqual([]);
  });
});
