/**
 * `PATCH /campaigns/{campaign_id}`: edits, activation gated by the preflight verdict
 * (`409 PREFLIGHT_FAILED`, nothing applied), deactivation, concurrent activations sharing a
 * sender account, and organization isolation.
 */
import { expect, it } from 'vitest';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, demoAccounts, insertLead, readyCampaign, tickingClock } from '../support/campaign-setup.ts';

interface Campaign {
  id: string;
  name: string;
  is_active: boolean;
  description: string | null;
  custom_fields: unknown;
  lead_database_filters: unknown;
  refill_policy: unknown;
  updated_at: string;
  created_at: string;
}
interface Updated {
  message: string;
  campaign: Campaign;
}
interface Failure {
  error: string;
  message: string;
  details: {
    issues: Array<{ code: string; severity: string }>;
    blocking_count: number;
    errors: Array<{ field: string; type: string }>;
  };
}
interface Preflight {
  issues: Array<{ code: string; severity: string }>;
  blocking_count: number;
}

describeBackends('update campaign', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store(), { clock: tickingClock() });
  };
  const patch = <T = Updated>(id: string, body: unknown) => api.call<T>('PATCH', `/v1/campaigns/${id}`, { body });
  const read = async (id: string) =>
    (await api.call<{ campaign: Campaign }>('GET', `/v1/campaigns/${id}`)).body.campaign;

  it('changes the fields sent and keeps the others', async () => {
    await setup();
    const id = await createCampaign(api, { name: 'Before' });
    const before = await read(id);
    const refill = { enabled: true, min_backlog: 50, target_backlog: 200, mode: 'auto', extra_knob: 1 };
    const answer = await patch(id, {
      name: 'After',
      custom_fields: ['legacy', 'list'],
      lead_database_filters: { industries: ['Software'] },
      refill_policy: refill,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Campaign updated');
    expect(answer.body.campaign).toMatchObject({
      name: 'After',
      description: '',
      is_active: false,
      custom_fields: ['legacy', 'list'],
      lead_database_filters: { industries: ['Software'] },
      refill_policy: refill,
      created_at: before.created_at,
    });
    expect(answer.body.campaign.updated_at > before.updated_at).toBe(true);
    expect(await read(id)).toEqual(answer.body.campaign);
    const cleared = await patch(id, { description: null, custom_fields: null, refill_policy: null });
    expect(cleared.body.campaign).toMatchObject({
      name: 'After',
      description: null,
      custom_fields: null,
      refill_policy: null,
    });
  });

  it('refuses an empty body, unknown keys and an empty name with VALIDATION_ERROR', async () => {
    await setup();
    const id = await createCampaign(api);
    for (const body of [{}, { sequence: [] }, { name: '' }, { is_active: 'yes' }]) {
      const answer = await patch<Failure>(id, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses activation with 409 PREFLIGHT_FAILED listing the blocking issues, and applies nothing', async () => {
    await setup();
    const id = await createCampaign(api, { name: 'Draft' });
    const before = await read(id);
    const answer = await patch<Failure>(id, { is_active: true, name: 'Renamed', description: 'new' });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe('PREFLIGHT_FAILED');
    const preflight = await api.call<Preflight>('GET', `/v1/campaigns/${id}/preflight`);
    const blocking = preflight.body.issues.filter((i) => i.severity === 'blocking');
    expect(answer.body.details.issues).toEqual(blocking);
    expect(answer.body.details.blocking_count).toBe(preflight.body.blocking_count);
    expect(answer.body.details.issues.map((i) => i.code)).toEqual(['NO_SEQUENCE', 'NO_SENDERS', 'NO_LEADS']);
    expect(answer.body.message).toContain('3 blocking preflight issues (NO_SEQUENCE, NO_SENDERS, NO_LEADS)');
    expect(await read(id)).toEqual(before);
  });

  it('activates a campaign whose preflight passes, applying the other fields in the same write', async () => {
    await setup();
    const id = await readyCampaign(api);
    const answer = await patch(id, { is_active: true, description: 'Live now' });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Campaign activated');
    expect(answer.body.campaign).toMatchObject({ is_active: true, description: 'Live now' });
    expect(await read(id)).toEqual(answer.body.campaign);
    const record = await store().campaigns.get(api.organizationId, id);
    expect(record?.activated_at).not.toBeNull();
  });

  it('answers 200 without re-running the checks when the campaign is already active', async () => {
    await setup();
    const id = await readyCampaign(api);
    await patch(id, { is_active: true });
    // The only lead goes: the preflight now blocks, but the campaign is already active.
    const [lead] = (await store().leads.list(api.organizationId, { campaign_id: id, limit: 10, offset: 0 })).items;
    await store().leads.erase(api.organizationId, lead?.id ?? '', new Date().toISOString());
    const again = await patch(id, { is_active: true });
    expect(again.status).toBe(200);
    expect(again.body.campaign.is_active).toBe(true);
  });

  it('deactivates, frees the senders for another campaign, and changes nothing on an inactive campaign', async () => {
    await setup();
    const { email } = await demoAccounts(api);
    const first = await readyCampaign(api, [email.id]);
    const second = await readyCampaign(api, [email.id]);
    expect((await patch(first, { is_active: true })).status).toBe(200);
    const blocked = await patch<Failure>(second, { is_active: true });
    expect(blocked.status).toBe(409);
    expect(blocked.body.details.issues.map((i) => i.code)).toEqual(['ACCOUNT_IN_USE']);

    const stopped = await patch(first, { is_active: false });
    expect(stopped.status).toBe(200);
    expect(stopped.body.message).toBe('Campaign deactivated');
    expect(stopped.body.campaign.is_active).toBe(false);
    expect((await patch(second, { is_active: true })).status).toBe(200);

    const before = await read(first);
    const again = await patch(first, { is_active: false });
    expect(again.status).toBe(200);
    expect(again.body.campaign).toEqual(before);
  });

  it('lets only one of several concurrent activations sharing an account through', async () => {
    await setup();
    const { email } = await demoAccounts(api);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await readyCampaign(api, [email.id]));
    const answers = await Promise.all(ids.map((id) => patch<Updated & Failure>(id, { is_active: true })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body.error).toBe('PREFLIGHT_FAILED');
      expect(answer.body.details.issues.map((i) => i.code)).toEqual(['ACCOUNT_IN_USE']);
    }
    const active = await store().campaigns.list(api.organizationId, { is_active: true, limit: 10, offset: 0 });
    expect(active.total).toBe(1);
  });

  it('activation counts enrolled leads that were added after the senders', async () => {
    await setup();
    const id = await createCampaign(api, {
      sequence: { variation_a: [{ id: 1, type: 'email', subject: 'a', content: 'b' }] },
    });
    const { email } = await demoAccounts(api);
    await api.call('PUT', `/v1/campaigns/${id}/senders`, { body: { account_ids: [email.id] } });
    const blocked = await patch<Failure>(id, { is_active: true });
    expect(blocked.body.details.issues.map((i) => i.code)).toEqual(['NO_LEADS']);
    await insertLead(api, {}, id);
    expect((await patch(id, { is_active: true })).status).toBe(200);
  });

  it('answers 404 for another organization’s campaign and for a malformed id', async () => {
    await setup();
    const id = await readyCampaign(api);
    const other = await createTestApi(store());
    const foreign = await other.call<Failure>('PATCH', `/v1/campaigns/${id}`, { body: { is_active: true } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('CAMPAIGN_NOT_FOUND');
    expect((await read(id)).is_active).toBe(false);
    const malformed = await api.call<Failure>('PATCH', '/v1/campaigns/nope', { body: { name: 'x' } });
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('NOT_FOUND');
  });
});
