/**
 * `GET /campaigns/{campaign_id}/preflight`: the verdict over the stored campaign, its AI
 * fields, senders, enrolled leads and the organization's subscription.
 */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, insertLead, q4Sequence, readyCampaign } from '../support/campaign-setup.ts';

interface Preflight {
  ok: boolean;
  campaign_id: string;
  blocking_count: number;
  warning_count: number;
  checks: Array<{ id: string; status: string; detail: string | null }>;
  issues: Array<{ code: string; severity: string; message: string }>;
}

describeBackends('campaign preflight', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store());
  };
  const preflight = (id: string) => api.call<Preflight>('GET', `/v1/campaigns/${id}/preflight`);
  const status = (answer: Preflight, id: string) => answer.checks.find((c) => c.id === id)?.status;

  it('passes a campaign that is ready, with every check listed', async () => {
    await setup();
    const id = await createCampaign(api, { sequence: q4Sequence() });
    const { linkedin, email } = await demoAccounts(api);
    await api.call('PUT', `/v1/campaigns/${id}/senders`, { body: { account_ids: [linkedin.id, email.id] } });
    await api.call('POST', `/v1/campaigns/${id}/ai-fields`, {
      body: { field_name: 'icebreaker', ai_instructions: 'One line.', fallback_value: 'Saw your launch.' },
    });
    await insertLead(api, {}, id);
    const answer = await preflight(id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, campaign_id: id, blocking_count: 0, warning_count: 0, issues: [] });
    expect(answer.body.checks).toHaveLength(11);
    expect(answer.body.checks.every((c) => c.status === 'pass')).toBe(true);
  });

  it('reports disconnected senders, failing email authentication and accounts busy elsewhere', async () => {
    await setup();
    const { email, linkedin2, disconnectedEmail } = await demoAccounts(api);
    const busy = await readyCampaign(api, [email.id, linkedin2.id]);
    expect((await api.call('PATCH', `/v1/campaigns/${busy}`, { body: { is_active: true } })).status).toBe(200);
    const id = await createCampaign(api, { sequence: q4Sequence() });
    // A disconnected account cannot be assigned any more; an older assignment can remain.
    await store().campaigns.update(api.organizationId, id, { enabled_accounts: [disconnectedEmail.id, linkedin2.id] });
    const answer = await preflight(id);
    expect(answer.body.ok).toBe(false);
    expect(answer.body.issues.map((i) => `${i.severity}:${i.code}`)).toEqual([
      'blocking:UNKNOWN_VARIABLE',
      'blocking:SENDER_DISCONNECTED',
      'blocking:ACCOUNT_IN_USE',
      'blocking:NO_LEADS',
      'warning:EMAIL_AUTH_FAILING',
    ]);
    expect(answer.body.issues[2]?.message).toContain(busy);
    expect(status(answer.body, 'senders_connected')).toBe('fail');
    expect(status(answer.body, 'email_authentication')).toBe('warn');
    expect(status(answer.body, 'account_conflicts')).toBe('fail');
  });

  it('measures lead data coverage over live enrolments of leads that are not deleted', async () => {
    await setup();
    const id = await readyCampaign(api);
    await insertLead(api, { company: null }, id);
    const gone = await insertLead(api, { company: null }, id);
    await store().leads.erase(api.organizationId, gone.lead.id, new Date().toISOString());
    await insertLead(api, { company: null }); // not enrolled
    const answer = await preflight(id);
    expect(answer.body.ok).toBe(true);
    expect(answer.body.issues.map((i) => i.message)).toEqual([
      '{company} has no value for 1 of 2 enrolled leads (50% coverage); it renders empty for them.',
    ]);
    expect(answer.body.checks.find((c) => c.id === 'enrolled_leads')?.detail).toBe('2 leads enrolled.');
  });

  it('knows custom fields from the enrolled leads', async () => {
    await setup();
    const id = await readyCampaign(api);
    await api.call('PATCH', `/v1/campaigns/${id}/sequence/steps/1`, {
      body: { updates: { content: 'About {pain_point}' } },
    });
    expect((await preflight(id)).body.issues.map((i) => i.code)).toEqual(['UNKNOWN_VARIABLE']);
    await insertLead(api, { custom_fields: { pain_point: 'slow outbound' } }, id);
    const answer = await preflight(id);
    expect(answer.body.issues.map((i) => i.message)).toEqual([
      '{pain_point} has no value for 1 of 2 enrolled leads (50% coverage); it renders empty for them.',
    ]);
  });

  it('fails when the organization’s subscription is not active', async () => {
    await setup();
    const id = await readyCampaign(api);
    await store().organizations.update(api.organizationId, { subscription_active: false });
    const answer = await preflight(id);
    expect(answer.body.issues.map((i) => i.code)).toEqual(['SUBSCRIPTION_INACTIVE']);
    expect(status(answer.body, 'subscription')).toBe('fail');
  });

  it('changes nothing and hides other organizations’ campaigns', async () => {
    await setup();
    const id = await readyCampaign(api);
    const before = await store().campaigns.get(api.organizationId, id);
    await preflight(id);
    expect(await store().campaigns.get(api.organizationId, id)).toEqual(before);
    const other = await createTestApi(store());
    const foreign = await other.call<{ error: string }>('GET', `/v1/campaigns/${id}/preflight`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('CAMPAIGN_NOT_FOUND');
  });
});
