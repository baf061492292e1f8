/**
 * `reset()` puts the mock back to its seeded state (data, idempotency keys, rate-limit
 * counts, scenarios, overrides); the same seed gives the same data; fixtures are created
 * through the API, so the service's rules apply to them.
 */
import {
  createCampaign,
  deleteLead,
  getCampaign,
  getLead,
  listCampaigns,
  listLeads,
  OcsNotFoundError,
  updateCampaign,
  type components,
} from '@ocs/sdk';
import { describe, expect, it } from 'vitest';
import { createOcsMock, OcsMockSetupError, type OcsMockDataCopy } from '../src/node/index.ts';
import { mockedApi } from './support/setup.ts';

const { mock, client } = await mockedApi({ seed: 11 });
const auth = () => ({ Authorization: `Bearer ${mock.apiKey}` });

describe('reset()', () => {
  it('undoes creates, updates and deletes', async () => {
    const [campaign] = mock.data.campaigns;
    const [lead] = mock.data.leads;
    if (!campaign || !lead) throw new Error('seeded data missing');
    await createCampaign(client(), { name: 'Temporary' });
    await updateCampaign(client(), { campaign_id: campaign.id, name: 'Renamed' });
    await deleteLead(client(), { lead_id: lead.id });
    expect((await listCampaigns(client())).total).toBe(4);
    await expect(getLead(client(), { lead_id: lead.id })).rejects.toBeInstanceOf(OcsNotFoundError);

    mock.reset();
    expect((await listCampaigns(client())).total).toBe(3);
    expect((await getCampaign(client(), { campaign_id: campaign.id })).campaign).toEqual(campaign);
    expect((await getLead(client(), { lead_id: lead.id })).lead).toEqual(lead);
    expect((await listLeads(client(), { limit: 100 })).total).toBe(30);
  });

  it('mock.data cannot be changed in place, so it still describes the seeded state after a test', () => {
    const seeded = structuredClone(mock.data);
    // Refused by the compiler too (data.test-d.ts): the casts show what plain JavaScript would do.
    const leads = mock.data.leads as Array<components['schemas']['Lead']>;
    expect(() => leads.sort((a, b) => (String(a.email) < String(b.email) ? 1 : -1))).toThrow(TypeError);
    expect(() => {
      (mock.data.campaigns[0] as { name: string }).name = 'Changed';
    }).toThrow(TypeError);
    expect(() => (mock.data.webhooks as unknown[]).push({})).toThrow(TypeError);
    expect(() => {
      (mock.data.organization.members[0] as { email: string }).email = 'x@example.com';
    }).toThrow(TypeError);
    mock.reset();
    expect(mock.data).toEqual(seeded);
    // A copy is the test's own.
    const copy = structuredClone(mock.data) as OcsMockDataCopy;
    copy.leads.reverse();
    expect(copy.leads[0]).toEqual(seeded.leads[seeded.leads.length - 1]);
  });

  it('mock.apiKey, baseUrl and data cannot be reassigned; methods may still be spied on', () => {
    const { apiKey, baseUrl, data } = mock;
    const writable = mock as { -readonly [K in keyof typeof mock]: (typeof mock)[K] };
    expect(() => {
      writable.apiKey = 'ocs_other';
    }).toThrow(TypeError);
    expect(() => {
      writable.baseUrl = 'https://elsewhere.test/v1';
    }).toThrow(TypeError);
    expect(() => {
      writable.data = structuredClone(data);
    }).toThrow(TypeError);
    expect([mock.apiKey, mock.baseUrl, mock.data]).toEqual([apiKey, baseUrl, data]);
    const reset = mock.reset;
    writable.reset = () => reset();
    writable.reset = reset;
  });

  it('forgets idempotency keys and rate-limit counts, scenarios and overrides', async () => {
    await createCampaign(client(), { name: 'First' }, { idempotencyKey: 'k' });
    mock.scenarios.rateLimit({ perEndpoint: 1 });
    mock.scenarios.fail('listLeads', { status: 500, code: 'INTERNAL_ERROR', times: 5 });
    mock.use(mock.http.get('/campaigns', ({ response }) => response(500).json(internalError)));
    // Left on, these would make every call below answer 503, or wait a minute (the test's timeout).
    mock.scenarios.unavailable();
    mock.scenarios.latency(60_000);

    mock.reset();
    // A different body under the same key is a new request again: no IDEMPOTENCY_KEY_REUSED.
    const created = await createCampaign(client(), { name: 'Second' }, { idempotencyKey: 'k' });
    expect(created.campaign?.name).toBe('Second');
    const first = await listCampaigns(client());
    expect(first.rateLimit).toMatchObject({ limit: 100, remaining: 99 });
    expect((await listLeads(client())).total).toBe(30);
  });

  it('lets a request waiting in added latency go, with a connection reset: it writes nothing after the reset', async () => {
    mock.scenarios.latency(60_000);
    const waiting = mock.fetch(`${mock.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Made before the reset' }),
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    mock.reset();
    await expect(waiting).rejects.toThrow(TypeError);
    const { campaigns } = await listCampaigns(client());
    expect(campaigns.map((campaign) => campaign.name)).not.toContain('Made before the reset');
    expect(campaigns).toHaveLength(mock.data.campaigns.length);
  });

  it('is the same state every time: the seeded IDs never change', async () => {
    const ids = async () => (await listCampaigns(client())).campaigns.map((c) => c.id).sort();
    const before = await ids();
    for (let i = 0; i < 3; i++) {
      await createCampaign(client(), { name: `Run ${i}` });
      mock.reset();
      expect(await ids()).toEqual(before);
    }
  });
});

const internalError = { success: false as const, error: 'INTERNAL_ERROR' as const, message: 'x', request_id: 'req_1' };

/** The data without the times, which follow the clock. */
function timeless(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item: unknown) =>
    ['created_at', 'updated_at', 'enrolled_at', 'connected_at', 'activated_at'].includes(key) ? undefined : item,
  );
}

describe('seeds', () => {
  it('the same seed gives the same IDs, names and key; another seed different ones', async () => {
    const again = await createOcsMock({ seed: 11 });
    expect(again.apiKey).toBe(mock.apiKey);
    expect(timeless(again.data)).toEqual(timeless(mock.data));
    const other = await createOcsMock({ seed: 12 });
    expect(other.apiKey).not.toBe(mock.apiKey);
    expect(other.data.organization.id).not.toBe(mock.data.organization.id);
    expect(other.data.leads.map((l) => l.email)).not.toEqual(mock.data.leads.map((l) => l.email));
  });

  it('with a fixed clock, the data is identical to the byte', async () => {
    const clock = { now: () => new Date('2026-11-02T09:00:00.000Z') };
    const a = await createOcsMock({ seed: 3, clock });
    const b = await createOcsMock({ seed: 3, clock });
    expect(JSON.stringify(a.data)).toBe(JSON.stringify(b.data));
    expect(a.data.campaigns[0]?.created_at).toBe('2026-11-02T09:00:00.000+00:00');
  });

  it('seeds an organization, members, a key, sender accounts, a pipeline with stages, campaigns and leads', () => {
    const { data } = mock;
    expect(data.organization.members.map((m) => m.role).sort()).toEqual(['admin', 'owner']);
    expect(data.apiKey).toMatch(/^ocs_[A-Za-z0-9]{40}$/);
    expect(data.accounts.map((a) => `${a.platform}:${a.status}`).sort()).toEqual([
      'email:connected',
      'email:connected',
      'email:disconnected',
      'linkedin:connected',
      'linkedin:connected',
      'linkedin:connected',
    ]);
    expect(data.pipeline).toMatchObject({ name: 'New Business', is_default: true });
    expect(data.stages.map((s) => s.name)).toEqual([
      'Qualified',
      'Meeting booked',
      'Proposal',
      'Closed won',
      'Closed lost',
    ]);
    expect(data.campaigns.map((c) => [c.name, c.is_active])).toEqual([
      ['Q4 Founders Outreach', true],
      ['EMEA Expansion', true],
      ['Fintech CFOs', false],
    ]);
    expect(data.leads).toHaveLength(30);
    expect(data.leads.filter((l) => l.enrolments.length > 0)).toHaveLength(24);
  });
});

describe('fixtures', () => {
  const sequence = {
    variation_a: [{ id: 1, type: 'email' as const, subject: 'Hi {first_name}', content: 'Hello.', delay: 0 }],
  };

  it('creates the test data through the API instead of the seeded campaigns and leads', async () => {
    const fixed = await createOcsMock({
      fixtures: {
        campaigns: [
          {
            name: 'Fixture campaign',
            sequence,
            leads: [{ email: 'one@example.com', first_name: 'One' }],
            webhooks: [
              { webhook_url: 'https://hooks.northwind-outreach.com/ocs', secret: 'fixture-secret-0123456789' },
            ],
            activate: true,
          },
        ],
        leads: [{ linkedin_profile: 'https://www.linkedin.com/in/no-email' }],
      },
    });
    expect(fixed.data.campaigns).toHaveLength(1);
    expect(fixed.data.campaigns[0]).toMatchObject({ name: 'Fixture campaign', is_active: true });
    expect(fixed.data.leads.map((l) => l.email)).toEqual(['one@example.com', null]);
    expect(fixed.data.webhooks).toEqual([
      expect.objectContaining({ url: 'https://hooks.northwind-outreach.com/ocs', secret: 'fixture-secret-0123456789' }),
    ]);
    expect(fixed.data.accounts).toHaveLength(6);
    const { request } = await fixed.webhooks.trigger({ secret: 'fixture-secret-0123456789' });
    expect(request.url).toBe('https://hooks.northwind-outreach.com/ocs');
  });

  it('refuses a fixture the service would refuse, with the API answer', async () => {
    const broken = createOcsMock({
      fixtures: {
        campaigns: [{ name: 'No subject', sequence: { variation_a: [{ id: 1, type: 'email', delay: 0 }] } }],
      },
    });
    await expect(broken).rejects.toBeInstanceOf(OcsMockSetupError);
    await expect(broken).rejects.toMatchObject({ status: 400, body: { error: 'SEQUENCE_VALIDATION_FAILED' } });

    const empty = createOcsMock({ fixtures: { campaigns: [{ name: 'No leads', sequence, activate: true }] } });
    await expect(empty).rejects.toMatchObject({ status: 409, body: { error: 'PREFLIGHT_FAILED' } });
  });
});
