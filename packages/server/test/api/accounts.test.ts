/** `GET /accounts` (order, filters, campaigns per account) and `POST /accounts/connect-link`. */
import { expect, it } from 'vitest';
import { createApiKey } from '../../src/seed/organizations.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { insertCampaign } from '../support/lead-fixtures.ts';

interface Account {
  id: string;
  platform: string;
  status: string;
  campaign_ids: string[];
  connected_at: string | null;
}
interface AccountPage {
  accounts: Account[];
  count: number;
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}
interface Link {
  url: string;
  expires_at: string;
  message: string;
}
interface Failure {
  error: string;
  message: string;
  details: { errors?: Array<{ field: string; type: string }>; account_ids?: string[] };
}

const start = new Date('2026-11-06T10:45:00.000Z');

describeBackends('accounts', (store) => {
  let api: TestApi;
  /** The demo organization's accounts by their seeded name (`acc_li_demo0001` ...). */
  let ids: Record<string, string>;
  const setup = async () => {
    api = await createTestApi(store(), { clock: { now: () => start } });
    const all = await store().accounts.list(api.organizationId, { limit: 500, offset: 0 });
    ids = Object.fromEntries(all.items.map((a) => [a.id.replace(/_[^_]+$/, ''), a.id]));
  };

  it('lists oldest connected first, never connected last, ties by id, with the campaigns using each', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId, {
      enabled_accounts: [ids.acc_li_demo0001 ?? '', ids.acc_em_demo0001 ?? ''],
      is_active: true,
      created_at: '2026-10-05T09:00:00.000Z',
    });
    const draft = await insertCampaign(store(), api.organizationId, api.ownerId, {
      name: 'Draft',
      enabled_accounts: [ids.acc_li_demo0001 ?? ''],
      created_at: '2026-10-06T09:00:00.000Z',
    });
    const answer = await api.call<AccountPage>('GET', '/v1/accounts');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ count: 4, total: 4, limit: 500, offset: 0, has_more: false });
    expect(answer.body.accounts.map((a) => [a.id, a.campaign_ids])).toEqual([
      [ids.acc_em_demo0001, [q4.id]],
      [ids.acc_li_demo0001, [q4.id, draft.id]],
      [ids.acc_li_demo0002, []],
      [ids.acc_em_demo0002, []],
    ]);
    expect(answer.body.accounts[3]).toMatchObject({ status: 'disconnected', connected_at: null });
    expect(answer.body.accounts[0]?.connected_at).toMatch(/\+00:00$/);
  });

  it('filters by platform and status, and pages with totals', async () => {
    await setup();
    const linkedin = await api.call<AccountPage>('GET', '/v1/accounts?platform=linkedin&status=connected');
    expect(linkedin.body.accounts.map((a) => a.id)).toEqual([ids.acc_li_demo0001, ids.acc_li_demo0002]);
    const disconnected = await api.call<AccountPage>('GET', '/v1/accounts?status=disconnected');
    expect(disconnected.body.accounts.map((a) => a.id)).toEqual([ids.acc_em_demo0002]);
    const page = await api.call<AccountPage>('GET', '/v1/accounts?limit=1&offset=1&platform=email');
    expect(page.body).toMatchObject({ count: 1, total: 2, limit: 1, offset: 1, has_more: false });
    expect(page.body.accounts.map((a) => a.id)).toEqual([ids.acc_em_demo0002]);
    for (const query of ['platform=fax', 'status=broken', 'limit=0', 'limit=501', 'offset=-1']) {
      const answer = await api.call<Failure>('GET', `/v1/accounts?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
    }
  });

  it('shows only the organization’s own accounts', async () => {
    await setup();
    const other = await createTestApi(store());
    const theirs = await other.call<AccountPage>('GET', '/v1/accounts');
    expect(theirs.body.total).toBe(4);
    expect(theirs.body.accounts.some((a) => Object.values(ids).includes(a.id))).toBe(false);
  });

  it('creates a one-time link on this server, valid for one hour, stored with its request', async () => {
    await setup();
    const answer = await api.call<Link>('POST', '/v1/accounts/connect-link', {
      body: { platform: 'linkedin', redirect_url: 'https://app.northwind-outreach.com/settings/senders' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Connect link created; it is valid for 1 hour and can be used once.');
    expect(answer.body.expires_at).toBe('2026-11-06T11:45:00.000+00:00');
    const match = /^http:\/\/localhost\/connect\/(cl_[A-Za-z0-9]{24})$/.exec(answer.body.url);
    expect(match, answer.body.url).not.toBeNull();
    expect(await store().accounts.getConnectLink(match?.[1] ?? '')).toEqual({
      token: match?.[1],
      organization_id: api.organizationId,
      platform: 'linkedin',
      account_id: null,
      redirect_url: 'https://app.northwind-outreach.com/settings/senders',
      expires_at: '2026-11-06T11:45:00.000Z',
      used_at: null,
      created_at: '2026-11-06T10:45:00.000Z',
    });
    const second = await api.call<Link>('POST', '/v1/accounts/connect-link', { body: { platform: 'linkedin' } });
    expect(second.body.url).not.toBe(answer.body.url);
  });

  it('creates a link that reconnects an existing account of that platform', async () => {
    await setup();
    const answer = await api.call<Link>('POST', '/v1/accounts/connect-link', {
      body: { platform: 'email', account_id: ids.acc_em_demo0002 },
    });
    expect(answer.status).toBe(201);
    const token = answer.body.url.split('/').pop() ?? '';
    expect(await store().accounts.getConnectLink(token)).toMatchObject({
      platform: 'email',
      account_id: ids.acc_em_demo0002,
      redirect_url: null,
    });
  });

  it('answers INVALID_ACCOUNT for an unknown or foreign account, or another platform', async () => {
    await setup();
    const other = await createTestApi(store());
    const foreign = (await store().accounts.list(other.organizationId, { limit: 1, offset: 0 })).items[0]?.id ?? '';
    const cases: Array<[string, string, string]> = [
      ['email', 'acc_em_9Zz0aa11', 'acc_em_9Zz0aa11 is not an email account of the organization.'],
      ['linkedin', foreign, `${foreign} is not a LinkedIn account of the organization.`],
      ['linkedin', ids.acc_em_demo0002 ?? '', `${ids.acc_em_demo0002} is not a LinkedIn account of the organization.`],
    ];
    for (const [platform, accountId, message] of cases) {
      const answer = await api.call<Failure>('POST', '/v1/accounts/connect-link', {
        body: { platform, account_id: accountId },
      });
      expect(answer.status, accountId).toBe(400);
      expect(answer.body.error).toBe('INVALID_ACCOUNT');
      expect(answer.body.message).toContain(message);
      expect(answer.body.details.account_ids).toEqual([accountId]);
    }
  });

  it('validates the connect link body against the document', async () => {
    await setup();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'body.platform', 'required'],
      [{ platform: 'fax' }, 'body.platform', 'enum'],
      [{ platform: 'email', redirect_url: 'not a url' }, 'body.redirect_url', 'format'],
      [{ platform: 'email', account_id: 'x'.repeat(201) }, 'body.account_id', 'max_length'],
      [{ platform: 'email', colour: 'red' }, 'body.colour', 'additional_properties'],
    ];
    for (const [body, field, type] of cases) {
      const answer = await api.call<Failure>('POST', '/v1/accounts/connect-link', { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors).toEqual([expect.objectContaining({ field, type })]);
    }
  });

  it('needs accounts:write to create a link and accounts:read to list', async () => {
    await setup();
    const { key: readOnly } = await createApiKey(store(), {
      organizationId: api.organizationId,
      scopes: ['accounts:read'],
    });
    const refused = await api.call<Failure>('POST', '/v1/accounts/connect-link', {
      key: readOnly,
      body: { platform: 'email' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('INSUFFICIENT_SCOPE');
    expect((await api.call('GET', '/v1/accounts', { key: readOnly })).status).toBe(200);
    const { key: leadsOnly } = await createApiKey(store(), {
      organizationId: api.organizationId,
      scopes: ['leads:write'],
    });
    expect((await api.call<Failure>('GET', '/v1/accounts', { key: leadsOnly })).body.error).toBe('INSUFFICIENT_SCOPE');
  });
});
