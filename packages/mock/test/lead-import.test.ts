/**
 * The batch form of `POST /leads` through the mock, with the SDK's `importLeads`: the mock
 * answers it as the reference server does (its application), statefully: imported leads
 * are listed afterwards, a retried batch with its `Idempotency-Key` creates nothing twice,
 * and `reset()` takes them away.
 */
import { getLead, importLeads, listLeads, OcsBadRequestError, OcsConflictError } from '@ocs/sdk';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/setup.ts';

const { mock, client } = await mockedApi({ seed: 13 });

describe('lead import (the batch form of POST /leads)', () => {
  it('creates the new leads, leaves the existing one unchanged, and keeps them', async () => {
    const [campaign] = mock.data.campaigns;
    const [seeded] = mock.data.leads;
    if (!campaign || !seeded?.email) throw new Error('seeded data missing');
    const before = (await listLeads(client())).total;
    const imported = await importLeads(
      client(),
      [
        { email: 'new.one@example.com', first_name: 'New', campaign_id: campaign.id },
        { email: seeded.email.toUpperCase(), first_name: 'Ignored' },
        { linkedin_profile: 'https://www.linkedin.com/in/new-two' },
      ],
      { idempotencyKey: 'mock-import-1' },
    );
    expect(imported.status).toBe(207);
    expect(imported.idempotencyKey).toBe('mock-import-1');
    expect(imported).toMatchObject({ created: 2, existing: 1, failed: 0 });
    expect(imported.results.map((r) => [r.index, r.status])).toEqual([
      [0, 201],
      [1, 200],
      [2, 201],
    ]);
    expect(imported.results[1]).toMatchObject({ created: false, lead_id: seeded.id, sequence_lead_id: null });
    expect((await getLead(client(), { lead_id: seeded.id })).lead.first_name).toBe(seeded.first_name);
    expect((await listLeads(client())).total).toBe(before + 2);
    const [found] = (await listLeads(client(), { email: 'new.one@example.com' })).leads;
    expect(found?.enrolments.map((e) => e.campaign_id)).toEqual([campaign.id]);

    // The same batch again with its key: the stored answer, nothing created twice.
    const again = await importLeads(
      client(),
      [
        { email: 'new.one@example.com', first_name: 'New', campaign_id: campaign.id },
        { email: seeded.email.toUpperCase(), first_name: 'Ignored' },
        { linkedin_profile: 'https://www.linkedin.com/in/new-two' },
      ],
      { idempotencyKey: 'mock-import-1' },
    );
    expect({ ...again }).toEqual({ ...imported });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await listLeads(client())).total).toBe(before + 2);
    await expect(
      importLeads(client(), [{ email: 'other@example.com' }], { idempotencyKey: 'mock-import-1' }),
    ).rejects.toBeInstanceOf(OcsConflictError);

    mock.reset();
    expect((await listLeads(client())).total).toBe(before);
  });

  it('refuses a batch with an invalid lead, naming it, and creates nothing', async () => {
    const before = (await listLeads(client())).total;
    const failure = await importLeads(client(), [{ email: 'fine@example.com' }, { first_name: 'No email' }]).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OcsBadRequestError);
    expect((failure as OcsBadRequestError).details?.errors).toEqual([
      { field: 'body.leads[1].email', message: 'email or linkedin_profile is required', type: 'required' },
    ]);
    expect((await listLeads(client())).total).toBe(before);
  });
});
