/**
 * Writes to one lead that race each other, sent at once (on PostgreSQL each request has a
 * connection of its own, so they truly overlap): a change of the lead or a deal pointing at it
 * against its erasure, and two changes that each clear one of its two contacts. Whatever order
 * they commit in, no personal data survives the erasure, and a lead keeps an email or a
 * LinkedIn profile. Found by an attack on the server with concurrent requests (2026-11-28):
 * on PostgreSQL, 31 PATCHes of 40 wrote their values back into the erased row.
 */
import { expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

const rounds = 12;

interface Lead {
  id: string;
  email: string | null;
  linkedin_profile: string | null;
}

describeBackends('writes to one lead, racing', (store) => {
  const newLead = async (api: TestApi, tag: string) => {
    const created = await api.call<{ lead: Lead }>('POST', '/v1/leads', {
      body: {
        email: `victor.${tag}@racing.example`,
        first_name: 'Victor',
        last_name: 'Originalson',
        company: 'Acmeco',
        linkedin_profile: `https://www.linkedin.com/in/victor-${tag}`,
      },
    });
    expect(created.status).toBe(201);
    return created.body.lead.id;
  };

  it('a change of the lead racing its erasure never writes its values back', async () => {
    const api = await createTestApi(store());
    for (let round = 0; round < rounds; round++) {
      const id = await newLead(api, `patch${round}`);
      const [erased, changed] = await Promise.all([
        api.call('DELETE', `/v1/leads/${id}`),
        api.call('PATCH', `/v1/leads/${id}`, {
          body: {
            first_name: 'Leaky',
            last_name: 'Lastname',
            company: 'LeakCo',
            email: `leaky${round}@racing.example`,
          },
        }),
      ]);
      expect(erased.status).toBe(200);
      // Before the erasure (and erased with it), or after it: no such lead.
      expect([200, 404]).toContain(changed.status);
      const row = await store().leads.getRow(api.organizationId, id);
      expect(row?.deleted_at).not.toBeNull();
      expect(row).toMatchObject({ email: null, first_name: null, last_name: null, company: null });
    }
  });

  it('a deal made for the lead, or pointed at it, racing its erasure is scrubbed or refused', async () => {
    const api = await createTestApi(store());
    for (let round = 0; round < rounds; round++) {
      const id = await newLead(api, `deal${round}`);
      const blank = await api.call<{ deal: { id: string } }>('POST', '/v1/crm/deals', { body: { name: 'Blank deal' } });
      const [erased, created, moved] = await Promise.all([
        api.call('DELETE', `/v1/leads/${id}`),
        api.call('POST', '/v1/crm/deals', {
          body: { name: 'Deal with Victor Originalson', lead_id: id, notes: 'Call Victor at Acmeco' },
        }),
        api.call('PATCH', `/v1/crm/deals/${blank.body.deal.id}`, {
          body: { name: 'Upsell Victor Originalson', lead_id: id, notes: `Mail victor.deal${round}@racing.example` },
        }),
      ]);
      expect(erased.status).toBe(200);
      expect([201, 400]).toContain(created.status);
      expect([200, 400]).toContain(moved.status);
      const deals = await store().deals.list(api.organizationId, { lead_id: id, limit: 10, offset: 0 });
      expect(JSON.stringify(deals.items)).not.toMatch(/Victor|Originalson|Acmeco|racing\.example/);
    }
  });

  it('two changes that each clear one contact leave the lead one of them', async () => {
    const api = await createTestApi(store());
    for (let round = 0; round < rounds; round++) {
      const id = await newLead(api, `contact${round}`);
      const answers = await Promise.all([
        api.call('PATCH', `/v1/leads/${id}`, { body: { email: null } }),
        api.call('PATCH', `/v1/leads/${id}`, { body: { linkedin_profile: null } }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      const lead = await store().leads.get(api.organizationId, id);
      expect(lead?.email !== null || lead?.linkedin_profile !== null).toBe(true);
    }
  });
});
