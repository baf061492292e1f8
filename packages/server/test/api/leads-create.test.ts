/**
 * `POST /leads` and the deprecated `POST /leads/create`: create, same-email answer,
 * enrolment, organization isolation, transactions and concurrent creates of one email.
 */
import { expect, it } from 'vitest';
import { UniqueViolation } from '../../src/store/errors.ts';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { insertCampaign, mayaInput, steppingClock } from '../support/lead-fixtures.ts';

interface Enrolment {
  campaign_id: string;
  sequence_lead_id: string;
  status: string;
  variation: string | null;
  enrolled_at: string;
}
interface Lead {
  id: string;
  email: string | null;
  first_name: string | null;
  title: string | null;
  enrolments: Enrolment[];
  created_at: string;
  updated_at: string;
}
interface Created {
  created: boolean;
  message: string;
  sequence_lead_id: string | null;
  lead: Lead;
}
interface Failure {
  error: string;
  message: string;
  details: { errors: Array<{ field: string; type: string; message: string }> };
}

describeBackends('create lead', (store) => {
  let api: TestApi;
  const clock = steppingClock();
  const setup = async (options: { store?: Store } = {}) => {
    api = await createTestApi(options.store ?? store(), { clock });
  };
  const campaign = (overrides = {}) => insertCampaign(store(), api.organizationId, api.ownerId, overrides);
  const leadCount = async (email: string) =>
    (await store().leads.list(api.organizationId, { email, limit: 100, offset: 0 })).total;

  it('creates a lead without enrolling it', async () => {
    await setup();
    const answer = await api.call<Created>('POST', '/v1/leads', { body: mayaInput });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      success: true,
      created: true,
      sequence_lead_id: null,
      message: 'Lead created',
    });
    const { id, created_at, updated_at, ...fields } = answer.body.lead;
    expect(fields).toEqual({ ...mayaInput, enrolments: [] });
    expect(created_at).toMatch(/\+00:00$/);
    expect(updated_at).toBe(created_at);
    const read = await api.call<{ lead: Lead }>('GET', `/v1/leads/${id}`);
    expect(read.body.lead).toEqual(answer.body.lead);
  });

  it('creates a lead known only by its LinkedIn profile, with absent fields null', async () => {
    await setup();
    const answer = await api.call<Created>('POST', '/v1/leads', {
      body: { first_name: 'Priya', linkedin_profile: 'https://www.linkedin.com/in/priya-nair-halcyon' },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.lead).toMatchObject({
      email: null,
      first_name: 'Priya',
      last_name: null,
      annual_revenue: null,
      custom_fields: {},
    });
  });

  it('creates and enrols: a new enrolment is not contacted and has no arm yet', async () => {
    await setup();
    const q4 = await campaign({ ab_testing_enabled: true, traffic_split: 50 });
    const answer = await api.call<Created>('POST', '/v1/leads', { body: { ...mayaInput, campaign_id: q4.id } });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Lead created and enrolled in campaign Q4 Founders Outreach');
    expect(answer.body.sequence_lead_id).toEqual(expect.any(String));
    expect(answer.body.lead.enrolments).toEqual([
      {
        campaign_id: q4.id,
        sequence_lead_id: answer.body.sequence_lead_id,
        status: 'not_contacted',
        variation: null,
        enrolled_at: answer.body.lead.created_at,
      },
    ]);
  });

  it('answers 200 with the existing lead, unchanged, for the same email in any case', async () => {
    await setup();
    const first = await api.call<Created>('POST', '/v1/leads', { body: mayaInput });
    const again = await api.call<Created>('POST', '/v1/leads', {
      body: { email: 'MAYA.Patel@AcmeRobotics.com', first_name: 'Someone else', title: 'Intern' },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, sequence_lead_id: null });
    expect(again.body.message).toBe('A lead with this email already exists; returned unchanged.');
    expect(again.body.lead).toEqual(first.body.lead);
    expect(await leadCount(mayaInput.email)).toBe(1);
  });

  it('enrols an existing lead, and enrolling twice returns the same enrolment', async () => {
    await setup();
    const q4 = await campaign();
    const emea = await campaign({ name: 'EMEA Expansion' });
    await api.call<Created>('POST', '/v1/leads', { body: { ...mayaInput, campaign_id: q4.id } });
    const enrolled = await api.call<Created>('POST', '/v1/leads', {
      body: { email: mayaInput.email, campaign_id: emea.id },
    });
    expect(enrolled.status).toBe(200);
    expect(enrolled.body.message).toBe(
      'A lead with this email already exists; returned unchanged. Enrolled in campaign EMEA Expansion.',
    );
    expect(enrolled.body.lead.enrolments.map((e) => e.campaign_id)).toEqual([q4.id, emea.id]);
    const twice = await api.call<Created>('POST', '/v1/leads', {
      body: { email: mayaInput.email, campaign_id: emea.id },
    });
    expect(twice.status).toBe(200);
    expect(twice.body.message).toContain('Already enrolled in the campaign.');
    expect(twice.body.sequence_lead_id).toBe(enrolled.body.sequence_lead_id);
    expect(twice.body.lead.enrolments).toHaveLength(2);
  });

  it('refuses a campaign of another organization or an unknown one, creating nothing', async () => {
    await setup();
    const other = await createTestApi(store(), { clock });
    const foreign = await insertCampaign(store(), other.organizationId, other.ownerId);
    for (const campaignId of [foreign.id, crypto.randomUUID()]) {
      const answer = await api.call<Failure>('POST', '/v1/leads', { body: { ...mayaInput, campaign_id: campaignId } });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors).toEqual([
        { field: 'body.campaign_id', message: 'campaign not found', type: 'not_found' },
      ]);
    }
    expect(await leadCount(mayaInput.email)).toBe(0);
    // The existing-lead path refuses it too, and enrols nowhere.
    const created = await api.call<Created>('POST', '/v1/leads', { body: mayaInput });
    const refused = await api.call<Failure>('POST', '/v1/leads', {
      body: { email: mayaInput.email, campaign_id: foreign.id },
    });
    expect(refused.status).toBe(400);
    const read = await api.call<{ lead: Lead }>('GET', `/v1/leads/${created.body.lead.id}`);
    expect(read.body.lead.enrolments).toEqual([]);
  });

  it('needs an email or a LinkedIn profile', async () => {
    await setup();
    for (const body of [{ first_name: 'Nobody' }, { email: null, linkedin_profile: null }, { email: null }]) {
      const answer = await api.call<Failure>('POST', '/v1/leads', { body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details.errors).toEqual([
        { field: 'body.email', message: 'email or linkedin_profile is required', type: 'required' },
      ]);
    }
  });

  it('validates the body against the document', async () => {
    await setup();
    const answer = await api.call<Failure>('POST', '/v1/leads', {
      body: { email: 'not-an-email', employee_count: -1, campaign_id: 'nope', colour: 'red' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.email', type: 'format' }),
        expect.objectContaining({ field: 'body.employee_count', type: 'minimum' }),
        expect.objectContaining({ field: 'body.campaign_id', type: 'format' }),
        expect.objectContaining({ field: 'body.colour', type: 'additional_properties' }),
      ]),
    );
  });

  it('frees the email of a deleted lead: the same email creates a new lead', async () => {
    await setup();
    const first = await api.call<Created>('POST', '/v1/leads', { body: mayaInput });
    await api.call('DELETE', `/v1/leads/${first.body.lead.id}`);
    const again = await api.call<Created>('POST', '/v1/leads', { body: mayaInput });
    expect(again.status).toBe(201);
    expect(again.body.lead.id).not.toBe(first.body.lead.id);
  });

  it('answers the deprecated POST /leads/create the same way, with Deprecation and Link', async () => {
    await setup();
    const q4 = await campaign();
    const created = await api.call<Created>('POST', '/v1/leads/create', { body: { ...mayaInput, campaign_id: q4.id } });
    expect(created.status).toBe(201);
    expect(created.headers.get('Deprecation')).toBe('true');
    expect(created.headers.get('Link')).toBe('</v1/leads>; rel="successor-version"');
    expect(created.body.lead.enrolments).toHaveLength(1);
    const again = await api.call<Created>('POST', '/v1/leads/create', { body: { email: mayaInput.email } });
    expect(again.status).toBe(200);
    expect(again.body.lead.id).toBe(created.body.lead.id);
    const refused = await api.call<Failure>('POST', '/v1/leads/create', { body: { first_name: 'Nobody' } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('Deprecation')).toBe('true');
  });

  it('gives one lead and one enrolment for 10 concurrent creates of one email', async () => {
    await setup();
    const q4 = await campaign();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.call<Created>('POST', '/v1/leads', {
          body: { ...mayaInput, email: i % 2 ? mayaInput.email.toUpperCase() : mayaInput.email, campaign_id: q4.id },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.lead.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.sequence_lead_id)).size).toBe(1);
    expect(await leadCount(mayaInput.email)).toBe(1);
    expect(await store().enrolments.countForCampaign(q4.id)).toBe(1);
  });

  it('answers concurrent creates without a campaign (sent together) as if one came after the other', async () => {
    await setup();
    const emails = ['ava@x.io', 'AVA@x.io', 'ben@x.io', 'Ava@X.io', 'cleo@x.io', 'ben@x.io', 'dev@x.io', 'ava@x.io'];
    const answers = await Promise.all(
      emails.map((email) => api.call<Created>('POST', '/v1/leads', { body: { ...mayaInput, email } })),
    );
    const firstOf = new Map<string, Created['lead']>();
    for (const [i, answer] of answers.entries()) {
      const email = (emails[i] as string).toLowerCase();
      const created = answer.status === 201;
      expect(answer.body.created).toBe(created);
      expect(answer.body.message).toBe(
        created ? 'Lead created' : 'A lead with this email already exists; returned unchanged.',
      );
      if (created) {
        expect(firstOf.has(email)).toBe(false);
        firstOf.set(email, answer.body.lead);
      }
    }
    // One 201 per email; every answer for it is that lead, as a later read shows it.
    expect([...firstOf.keys()].sort()).toEqual(['ava@x.io', 'ben@x.io', 'cleo@x.io', 'dev@x.io']);
    for (const [i, answer] of answers.entries()) {
      expect(answer.body.lead).toEqual(firstOf.get((emails[i] as string).toLowerCase()));
      const read = await api.call<{ lead: Lead }>('GET', `/v1/leads/${answer.body.lead.id}`);
      expect(read.body.lead).toEqual(answer.body.lead);
    }
    for (const email of firstOf.keys()) expect(await leadCount(email)).toBe(1);
  });

  it('answers a lost race on the unique email as the same-email case', async () => {
    // The losing request does not see the winner's lead when it looks (as under concurrency on
    // PostgreSQL): its insert hits the unique index, and the retry finds the winner's lead.
    let hideExisting = false;
    const racing: Store = {
      ...store(),
      transaction: (work) =>
        store().transaction((tx) =>
          work({
            ...tx,
            leads: {
              ...tx.leads,
              async findByEmail(organizationId, email) {
                if (!hideExisting) return tx.leads.findByEmail(organizationId, email);
                hideExisting = false;
                return null;
              },
            },
          }),
        ),
    };
    await setup({ store: racing });
    const q4 = await campaign();
    const winner = await api.call<Created>('POST', '/v1/leads', { body: mayaInput });
    hideExisting = true;
    const loser = await api.call<Created>('POST', '/v1/leads', {
      body: { email: mayaInput.email, campaign_id: q4.id },
    });
    expect(loser.status).toBe(200);
    expect(loser.body.created).toBe(false);
    expect(loser.body.lead.id).toBe(winner.body.lead.id);
    expect(loser.body.lead.enrolments.map((e) => e.campaign_id)).toEqual([q4.id]);
    expect(await leadCount(mayaInput.email)).toBe(1);
  });

  it('leaves nothing behind when the enrolment fails after the lead was written', async () => {
    const failing: Store = {
      ...store(),
      transaction: (work) =>
        store().transaction((tx) =>
          work({
            ...tx,
            enrolments: {
              ...tx.enrolments,
              insert: async () => {
                throw new Error('disk full');
              },
            },
          }),
        ),
    };
    await setup({ store: failing });
    const q4 = await campaign();
    const failed = await api.call<Failure>('POST', '/v1/leads', { body: { ...mayaInput, campaign_id: q4.id } });
    expect(failed.status).toBe(500);
    expect(failed.body.error).toBe('INTERNAL_ERROR');
    expect(failed.body.message).not.toContain('disk full');
    expect(await leadCount(mayaInput.email)).toBe(0);
  });

  it('does not retry forever when the store keeps reporting a conflict', async () => {
    let conflict = false;
    let attempts = 0;
    const conflicting: Store = {
      ...store(),
      transaction(work) {
        if (!conflict) return store().transaction(work);
        attempts++;
        return Promise.reject(new UniqueViolation('leads_email'));
      },
    };
    await setup({ store: conflicting });
    const q4 = await campaign();
    conflict = true;
    // With a campaign the create and the enrolment run in a transaction (without one, the
    // create is one statement and cannot conflict: decision 0012).
    const answer = await api.call<Failure>('POST', '/v1/leads', { body: { ...mayaInput, campaign_id: q4.id } });
    expect(answer.status).toBe(500);
    expect(attempts).toBe(3);
  });
});
