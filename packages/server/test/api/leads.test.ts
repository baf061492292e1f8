/** `GET /leads` (offset and `page` paging, filters), `GET /leads/{id}` and `PATCH /leads/{id}`. */
import { expect, it } from 'vitest';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { insertCampaign, mayaInput, steppingClock } from '../support/lead-fixtures.ts';

interface Lead {
  id: string;
  email: string | null;
  first_name: string | null;
  company: string | null;
  title: string | null;
  linkedin_profile: string | null;
  custom_fields: Record<string, unknown>;
  enrolments: Array<{ campaign_id: string; sequence_lead_id: string }>;
  created_at: string;
  updated_at: string;
}
interface LeadPage {
  leads: Lead[];
  count: number;
  total: number;
  limit: number;
  offset: number;
  page: number;
  has_more: boolean;
}
interface Failure {
  error: string;
  message: string;
  details: { errors: Array<{ field: string; type: string; message: string }> };
}

describeBackends('leads', (store) => {
  let api: TestApi;
  const setup = async (options: { store?: Store } = {}) => {
    api = await createTestApi(options.store ?? store(), { clock: steppingClock() });
  };
  const createLead = async (body: Record<string, unknown>, on = api) =>
    (await on.call<{ lead: Lead; sequence_lead_id: string | null }>('POST', '/v1/leads', { body })).body;
  /** Five leads created one second apart: lead0 oldest. */
  const fiveLeads = async () => {
    const leads: Lead[] = [];
    for (let i = 0; i < 5; i++) leads.push((await createLead({ email: `lead${i}@example.com` })).lead);
    return leads;
  };
  const emails = (page: { leads: Lead[] }) => page.leads.map((l) => l.email);

  it('lists newest first, paging by offset', async () => {
    await setup();
    await fiveLeads();
    const first = await api.call<LeadPage>('GET', '/v1/leads?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 2, total: 5, limit: 2, offset: 0, page: 1, has_more: true });
    expect(emails(first.body)).toEqual(['lead4@example.com', 'lead3@example.com']);
    const last = await api.call<LeadPage>('GET', '/v1/leads?limit=2&offset=4');
    expect(last.body).toMatchObject({ count: 1, total: 5, offset: 4, page: 3, has_more: false });
    expect(emails(last.body)).toEqual(['lead0@example.com']);
    // An offset inside a page reports the page it falls in.
    const inside = await api.call<LeadPage>('GET', '/v1/leads?limit=2&offset=3');
    expect(inside.body).toMatchObject({ offset: 3, page: 2 });
    const defaults = await api.call<LeadPage>('GET', '/v1/leads');
    expect(defaults.body).toMatchObject({ count: 5, limit: 20, offset: 0, page: 1, has_more: false });
  });

  it('accepts page (from 1); offset wins when both are sent', async () => {
    await setup();
    await fiveLeads();
    const page2 = await api.call<LeadPage>('GET', '/v1/leads?limit=2&page=2');
    expect(page2.body).toMatchObject({ offset: 2, page: 2, count: 2, has_more: true });
    expect(emails(page2.body)).toEqual(['lead2@example.com', 'lead1@example.com']);
    const both = await api.call<LeadPage>('GET', '/v1/leads?limit=2&page=3&offset=0');
    expect(both.body).toMatchObject({ offset: 0, page: 1 });
    expect(emails(both.body)).toEqual(['lead4@example.com', 'lead3@example.com']);
    const beyond = await api.call<LeadPage>('GET', '/v1/leads?limit=2&page=9');
    expect(beyond.body).toMatchObject({ offset: 16, page: 9, count: 0, total: 5, has_more: false, leads: [] });
  });

  it('refuses bad paging and filter values with VALIDATION_ERROR', async () => {
    await setup();
    const cases: Array<[string, string]> = [
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['offset=-1', 'query.offset'],
      ['page=0', 'query.page'],
      ['page=abc', 'query.page'],
      ['campaign_id=nope', 'query.campaign_id'],
      [`email=${'x'.repeat(321)}`, 'query.email'],
      ['page=900719925474099', 'query.page'],
    ];
    for (const [query, field] of cases) {
      const answer = await api.call<Failure>('GET', `/v1/leads?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors[0]?.field, query).toBe(field);
    }
  });

  it('says an integer past 2^53 is out of range, not that it is no integer', async () => {
    await setup();
    const cases: Array<[string, string, string]> = [
      ['offset=9223372036854775807', 'query.offset', 'must be <= 9007199254740991'],
      [`offset=${'9'.repeat(400)}`, 'query.offset', 'must be <= 9007199254740991'],
      ['offset=-9223372036854775807', 'query.offset', 'must be >= 0'],
      ['page=9223372036854775807', 'query.page', 'must be <= 90071992547410'],
      ['limit=9223372036854775807', 'query.limit', 'must be <= 100'],
    ];
    for (const [query, field, message] of cases) {
      const answer = await api.call<Failure>('GET', `/v1/leads?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.details.errors, query).toEqual([expect.objectContaining({ field, type: expect.any(String) })]);
      expect(answer.body.details.errors[0]?.message, query).toContain(message);
    }
  });

  it('filters by enrolment and by email, case-insensitively', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const other = await createTestApi(store());
    const foreign = await insertCampaign(store(), other.organizationId, other.ownerId);
    await createLead({ ...mayaInput, campaign_id: q4.id });
    await createLead({ email: 'jonas.weber@brightlane.io', campaign_id: q4.id });
    await createLead({ email: 'sofia@lumenfreight.com' });
    await createLead({ email: 'maya.patel@acmerobotics.com', campaign_id: foreign.id }, other);

    const enrolled = await api.call<LeadPage>('GET', `/v1/leads?campaign_id=${q4.id}`);
    expect(emails(enrolled.body)).toEqual(['jonas.weber@brightlane.io', 'maya.patel@acmerobotics.com']);
    expect(enrolled.body.total).toBe(2);
    const byEmail = await api.call<LeadPage>('GET', '/v1/leads?email=MAYA.PATEL@acmerobotics.com');
    expect(byEmail.body).toMatchObject({ count: 1, total: 1 });
    expect(byEmail.body.leads[0]?.enrolments.map((e) => e.campaign_id)).toEqual([q4.id]);
    const combined = await api.call<LeadPage>('GET', `/v1/leads?campaign_id=${q4.id}&email=sofia@lumenfreight.com`);
    expect(combined.body.total).toBe(0);
    // Another organization's campaign, or an unknown one, gives an empty page.
    for (const id of [foreign.id, crypto.randomUUID()]) {
      const empty = await api.call<LeadPage>('GET', `/v1/leads?campaign_id=${id}`);
      expect(empty.status).toBe(200);
      expect(empty.body).toMatchObject({ count: 0, total: 0, page: 1, leads: [] });
    }
    // The other organization sees only its own Maya.
    const theirs = await other.call<LeadPage>('GET', '/v1/leads');
    expect(theirs.body.total).toBe(1);
  });

  it('gets a lead with its enrolments', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    const answer = await api.call<{ lead: Lead }>('GET', `/v1/leads/${created.lead.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body.lead).toEqual(created.lead);
    expect(answer.body.lead.enrolments).toEqual([
      expect.objectContaining({ campaign_id: q4.id, sequence_lead_id: created.sequence_lead_id }),
    ]);
  });

  it('answers NOT_FOUND for a malformed ID and LEAD_NOT_FOUND for unknown or foreign leads', async () => {
    await setup();
    const other = await createTestApi(store());
    const theirs = await createLead(mayaInput, other);
    const malformed = await api.call<Failure>('GET', '/v1/leads/not-a-uuid');
    expect(malformed.status).toBe(404);
    expect(malformed.body.error).toBe('NOT_FOUND');
    for (const id of [crypto.randomUUID(), theirs.lead.id]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { title: 'CEO' }],
        ['DELETE', undefined],
      ] as const) {
        const answer = await api.call<Failure>(method, `/v1/leads/${id}`, { body });
        expect(answer.status, `${method} ${id}`).toBe(404);
        expect(answer.body.error).toBe('LEAD_NOT_FOUND');
      }
    }
    expect((await other.call<{ lead: Lead }>('GET', `/v1/leads/${theirs.lead.id}`)).body.lead.title).toBe(
      mayaInput.title,
    );
  });

  it('updates some fields: omitted keep, null clears, custom_fields replaces', async () => {
    await setup();
    const created = await createLead(mayaInput);
    const answer = await api.call<{ lead: Lead; message: string }>('PATCH', `/v1/leads/${created.lead.id}`, {
      body: { title: 'CEO', company: null, custom_fields: { pilot_sites: 2 } },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Lead updated');
    expect(answer.body.lead).toEqual({
      ...created.lead,
      title: 'CEO',
      company: null,
      custom_fields: { pilot_sites: 2 },
      updated_at: expect.any(String),
    });
    expect(answer.body.lead.updated_at > created.lead.updated_at).toBe(true);
    const cleared = await api.call<{ lead: Lead }>('PATCH', `/v1/leads/${created.lead.id}`, {
      body: { custom_fields: null },
    });
    expect(cleared.body.lead.custom_fields).toEqual({});
    const read = await api.call<{ lead: Lead }>('GET', `/v1/leads/${created.lead.id}`);
    expect(read.body.lead).toEqual(cleared.body.lead);
  });

  it('refuses the email of another lead (any case), changing nothing', async () => {
    await setup();
    const maya = await createLead(mayaInput);
    await createLead({ email: 'jonas.weber@brightlane.io' });
    const answer = await api.call<Failure>('PATCH', `/v1/leads/${maya.lead.id}`, {
      body: { email: 'Jonas.Weber@Brightlane.io', title: 'CEO' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('VALIDATION_ERROR');
    expect(answer.body.details.errors).toEqual([
      { field: 'body.email', message: 'another lead of this organization has this email', type: 'duplicate' },
    ]);
    const read = await api.call<{ lead: Lead }>('GET', `/v1/leads/${maya.lead.id}`);
    expect(read.body.lead).toEqual(maya.lead);
    // Its own email in another case is fine.
    const recased = await api.call<{ lead: Lead }>('PATCH', `/v1/leads/${maya.lead.id}`, {
      body: { email: 'Maya.Patel@acmerobotics.com' },
    });
    expect(recased.status).toBe(200);
    expect(recased.body.lead.email).toBe('Maya.Patel@acmerobotics.com');
  });

  it('answers a lost race on the unique email with the duplicate error', async () => {
    // Another request gives the email away between this one's check and its write.
    let hideHolder = false;
    const racing: Store = {
      ...store(),
      transaction: (work) =>
        store().transaction((tx) =>
          work({
            ...tx,
            leads: {
              ...tx.leads,
              findByEmail: async (organizationId, email) =>
                hideHolder ? null : tx.leads.findByEmail(organizationId, email),
            },
          }),
        ),
    };
    await setup({ store: racing });
    const maya = await createLead(mayaInput);
    await createLead({ email: 'jonas.weber@brightlane.io' });
    hideHolder = true;
    const answer = await api.call<Failure>('PATCH', `/v1/leads/${maya.lead.id}`, {
      body: { email: 'jonas.weber@brightlane.io' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors[0]?.type).toBe('duplicate');
    expect((await store().leads.get(api.organizationId, maya.lead.id))?.email).toBe(mayaInput.email);
  });

  it('keeps an email or a LinkedIn profile on every lead', async () => {
    await setup();
    const maya = await createLead(mayaInput);
    const both = await api.call<Failure>('PATCH', `/v1/leads/${maya.lead.id}`, {
      body: { email: null, linkedin_profile: null },
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('VALIDATION_ERROR');
    expect(both.body.details.errors.map((e) => e.field)).toEqual(['body.email', 'body.linkedin_profile']);
    // Clearing one while the other remains is fine.
    const noEmail = await api.call<{ lead: Lead }>('PATCH', `/v1/leads/${maya.lead.id}`, { body: { email: null } });
    expect(noEmail.status).toBe(200);
    expect(noEmail.body.lead).toMatchObject({ email: null, linkedin_profile: mayaInput.linkedin_profile });
    const last = await api.call<Failure>('PATCH', `/v1/leads/${maya.lead.id}`, { body: { linkedin_profile: null } });
    expect(last.status).toBe(400);
    expect(last.body.details.errors).toEqual([expect.objectContaining({ field: 'body.linkedin_profile' })]);
    // Swapping one for the other in one request is fine.
    const swapped = await api.call<{ lead: Lead }>('PATCH', `/v1/leads/${maya.lead.id}`, {
      body: { linkedin_profile: null, email: 'maya@acmerobotics.com' },
    });
    expect(swapped.status).toBe(200);
  });

  it('validates the update body against the document', async () => {
    await setup();
    const maya = await createLead(mayaInput);
    for (const [body, field, type] of [
      [{}, 'body', 'min_properties'],
      [{ employee_count: -1 }, 'body.employee_count', 'minimum'],
      [{ email: 'nope' }, 'body.email', 'format'],
      [{ campaign_id: crypto.randomUUID() }, 'body.campaign_id', 'additional_properties'],
    ] as const) {
      const answer = await api.call<Failure>('PATCH', `/v1/leads/${maya.lead.id}`, { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.details.errors).toEqual([expect.objectContaining({ field, type })]);
    }
  });
});
