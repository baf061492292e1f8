/**
 * `DELETE /leads/{lead_id}`: removal from one campaign, and deletion of the lead by erasure
 * (the database row overwritten in place, the lead gone from every read, its row kept).
 */
import { expect, it } from 'vitest';
import type { SqlStore } from '../../src/store/sql/index.ts';
import type { Store } from '../../src/store/types.ts';
import { type TestApi, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { insertCampaign, mayaInput, personalFields, steppingClock } from '../support/lead-fixtures.ts';

interface Lead {
  id: string;
  enrolments: Array<{ campaign_id: string; sequence_lead_id: string }>;
}
interface Failure {
  error: string;
  message: string;
}
interface Deleted {
  message: string;
  lead_id: string;
  campaign_id: string | null;
}

describeBackends('delete lead', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store(), { clock: steppingClock() });
  };
  const createLead = async (body: Record<string, unknown>) =>
    (await api.call<{ lead: Lead; sequence_lead_id: string | null }>('POST', '/v1/leads', { body })).body;

  it('removes the lead from one campaign, keeping the lead and its other enrolments', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const emea = await insertCampaign(store(), api.organizationId, api.ownerId, { name: 'EMEA Expansion' });
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    await createLead({ email: mayaInput.email, campaign_id: emea.id });
    const before = await api.call<{ lead: Lead & Record<string, unknown> }>('GET', `/v1/leads/${created.lead.id}`);

    const answer = await api.call<Deleted>('DELETE', `/v1/leads/${created.lead.id}?campaign_id=${q4.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: 'Lead removed from campaign',
      lead_id: created.lead.id,
      campaign_id: q4.id,
    });
    const after = await api.call<{ lead: Lead & Record<string, unknown> }>('GET', `/v1/leads/${created.lead.id}`);
    expect(after.body.lead).toEqual({ ...before.body.lead, enrolments: [before.body.lead.enrolments[1]] });
    const inQ4 = await api.call<{ total: number }>('GET', `/v1/leads?campaign_id=${q4.id}`);
    expect(inQ4.body.total).toBe(0);
    // The enrolment row stays as the record of what was sent; the lead can be enrolled again.
    const again = await createLead({ email: mayaInput.email, campaign_id: q4.id });
    expect(again.sequence_lead_id).not.toBe(created.sequence_lead_id);
  });

  it('answers LEAD_NOT_IN_CAMPAIGN when not enrolled there, removed already, or the campaign is foreign', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const other = await createTestApi(store());
    const foreign = await insertCampaign(store(), other.organizationId, other.ownerId);
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    await api.call('DELETE', `/v1/leads/${created.lead.id}?campaign_id=${q4.id}`);
    for (const campaignId of [q4.id, foreign.id, crypto.randomUUID()]) {
      const answer = await api.call<Failure>('DELETE', `/v1/leads/${created.lead.id}?campaign_id=${campaignId}`);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('LEAD_NOT_IN_CAMPAIGN');
      expect(answer.body.message).toContain(campaignId);
    }
    // A lead that is not ours answers LEAD_NOT_FOUND even with a campaign.
    const unknown = await api.call<Failure>('DELETE', `/v1/leads/${crypto.randomUUID()}?campaign_id=${q4.id}`);
    expect(unknown.body.error).toBe('LEAD_NOT_FOUND');
    const malformed = await api.call<Failure & { details: unknown }>(
      'DELETE',
      `/v1/leads/${created.lead.id}?campaign_id=nope`,
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('VALIDATION_ERROR');
  });

  it('deletes the lead: the row keeps no personal data, and every read leaves it out', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    const leadId = created.lead.id;
    const kept = await createLead({ email: 'jonas.weber@brightlane.io', campaign_id: q4.id });

    const answer = await api.call<Deleted>('DELETE', `/v1/leads/${leadId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, message: 'Lead deleted', lead_id: leadId, campaign_id: null });

    // The row, as stored: personal and company fields overwritten, identity and times kept.
    const row = await store().leads.getRow(api.organizationId, leadId);
    expect(row).toMatchObject({ id: leadId, organization_id: api.organizationId, custom_fields: {} });
    for (const field of personalFields) expect(row?.[field], field).toBeNull();
    expect(row?.deleted_at).toEqual(expect.any(String));
    expect(row?.created_at).toEqual(expect.any(String));

    // Every read: get, list, email filter, the lookup behind same-email creates, summaries.
    expect((await api.call<Failure>('GET', `/v1/leads/${leadId}`)).body.error).toBe('LEAD_NOT_FOUND');
    const list = await api.call<{ leads: Lead[]; total: number }>('GET', '/v1/leads');
    expect(list.body.leads.map((l) => l.id)).toEqual([kept.lead.id]);
    expect((await api.call<{ total: number }>('GET', `/v1/leads?email=${mayaInput.email}`)).body.total).toBe(0);
    expect((await api.call<{ total: number }>('GET', `/v1/leads?campaign_id=${q4.id}`)).body.total).toBe(1);
    expect(await store().leads.findByEmail(api.organizationId, mayaInput.email)).toBeNull();
    // Deal and booking lead summaries are read through getMany.
    expect((await store().leads.getMany(api.organizationId, [leadId, kept.lead.id])).map((l) => l.id)).toEqual([
      kept.lead.id,
    ]);
    // Every other operation on it answers LEAD_NOT_FOUND, deleting twice included.
    const patched = await api.call<Failure>('PATCH', `/v1/leads/${leadId}`, { body: { title: 'CEO' } });
    expect(patched.body.error).toBe('LEAD_NOT_FOUND');
    const removed = await api.call<Failure>('DELETE', `/v1/leads/${leadId}?campaign_id=${q4.id}`);
    expect(removed.body.error).toBe('LEAD_NOT_FOUND');
    const twice = await api.call<Failure>('DELETE', `/v1/leads/${leadId}`);
    expect(twice.status).toBe(404);
    expect(twice.body.error).toBe('LEAD_NOT_FOUND');
  });

  it('keeps the anonymised row and its enrolments as the record of past activity', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    const [enrolment] = await store().enrolments.listForLead(created.lead.id);
    await store().enrolments.update(enrolment?.id ?? '', { status: 'active', variation: 'a' });
    await api.call('DELETE', `/v1/leads/${created.lead.id}`);
    // The enrolment (its ID is what events and bookings carry) still points at the row.
    expect(await store().enrolments.listForLead(created.lead.id)).toEqual([
      expect.objectContaining({ id: created.sequence_lead_id, status: 'active', variation: 'a', removed_at: null }),
    ]);
    expect(await store().leads.getRow(api.organizationId, created.lead.id)).not.toBeNull();
  });

  it('shows lead: null in the deal and booking summaries that referred to the deleted lead', async () => {
    await setup();
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    const at = '2026-11-03T14:05:10.000Z';
    const dealId = crypto.randomUUID();
    await store().deals.insert({
      id: dealId,
      organization_id: api.organizationId,
      name: 'Pilot',
      lead_id: created.lead.id,
      pipeline_id: null,
      stage_id: null,
      owner_id: null,
      value: 24_000,
      probability: null,
      expected_close_date: null,
      actual_close_date: null,
      notes: null,
      custom_fields: null,
      metadata: null,
      created_at: at,
      updated_at: at,
    });
    await store().bookings.insert({
      id: crypto.randomUUID(),
      organization_id: api.organizationId,
      campaign_id: q4.id,
      enrolment_id: created.sequence_lead_id ?? '',
      lead_id: created.lead.id,
      kind: 'confirmation',
      booked_at: at,
      start_time: null,
      status: null,
      invitee_name: null,
      invitee_email: null,
      canceled_at: null,
      rescheduled: null,
      confirmed_by: 'agent',
    });
    const dealBefore = await api.call<{ deal: { lead: { id: string } | null } }>('GET', `/v1/crm/deals/${dealId}`);
    expect(dealBefore.body.deal.lead?.id).toBe(created.lead.id);

    await api.call('DELETE', `/v1/leads/${created.lead.id}`);
    const deal = await api.call<{ deal: { lead_id: string; lead: unknown } }>('GET', `/v1/crm/deals/${dealId}`);
    expect(deal.body.deal).toMatchObject({ lead_id: created.lead.id, lead: null });
    const deals = await api.call<{ deals: Array<{ lead: unknown }> }>('GET', '/v1/crm/deals');
    expect(deals.body.deals.map((d) => d.lead)).toEqual([null]);
    const bookings = await api.call<{ bookings: Array<{ lead: unknown; sequence_lead_id: string }> }>(
      'GET',
      `/v1/campaigns/${q4.id}/bookings`,
    );
    expect(bookings.body.bookings).toEqual([
      expect.objectContaining({ lead: null, sequence_lead_id: created.sequence_lead_id }),
    ]);
  });

  // The stored row itself: read with SQL on the SQL stores, and the memory table's record.
  it('leaves no personal data in the stored row itself', async () => {
    await setup();
    const created = await createLead(mayaInput);
    await api.call('DELETE', `/v1/leads/${created.lead.id}`);
    const [raw] =
      store().kind === 'memory'
        ? [
            {
              row: (await store().leads.getRow(api.organizationId, created.lead.id)) as unknown as Record<
                string,
                unknown
              >,
            },
          ]
        : await (store() as SqlStore).client.query<{ row: Record<string, unknown> }>(
            'select to_jsonb(l) as row from leads l where id = $1',
            [created.lead.id],
          );
    const values = JSON.stringify(Object.values(raw?.row ?? {}));
    for (const value of ['Maya', 'Patel', 'acmerobotics', 'Acme', 'CEO', 'Industrial', 'linkedin', 'Series B']) {
      expect(values).not.toContain(value);
    }
    for (const field of personalFields) expect(raw?.row[field], field).toBeNull();
    expect(raw?.row.id).toBe(created.lead.id);
    expect(raw?.row.deleted_at).not.toBeNull();
  });

  it('hides another organization’s lead from removal and deletion', async () => {
    await setup();
    const other = await createTestApi(store());
    const theirCampaign = await insertCampaign(store(), other.organizationId, other.ownerId);
    const theirs = await other.call<{ lead: Lead }>('POST', '/v1/leads', {
      body: { ...mayaInput, campaign_id: theirCampaign.id },
    });
    const deleted = await api.call<Failure>('DELETE', `/v1/leads/${theirs.body.lead.id}`);
    expect(deleted.body.error).toBe('LEAD_NOT_FOUND');
    const removed = await api.call<Failure>(
      'DELETE',
      `/v1/leads/${theirs.body.lead.id}?campaign_id=${theirCampaign.id}`,
    );
    expect(removed.body.error).toBe('LEAD_NOT_FOUND');
    const still = await other.call<{ lead: Lead }>('GET', `/v1/leads/${theirs.body.lead.id}`);
    expect(still.body.lead.enrolments).toHaveLength(1);
  });

  it('rolls the removal back when the write fails', async () => {
    const failing: Store = {
      ...store(),
      transaction: (work) =>
        store().transaction((tx) =>
          work({
            ...tx,
            enrolments: {
              ...tx.enrolments,
              update: async (id, patch) => {
                await tx.enrolments.update(id, patch);
                throw new Error('connection lost');
              },
            },
          }),
        ),
    };
    api = await createTestApi(failing, { clock: steppingClock() });
    const q4 = await insertCampaign(store(), api.organizationId, api.ownerId);
    const created = await createLead({ ...mayaInput, campaign_id: q4.id });
    const answer = await api.call<Failure>('DELETE', `/v1/leads/${created.lead.id}?campaign_id=${q4.id}`);
    expect(answer.status).toBe(500);
    expect(await store().enrolments.find(q4.id, created.lead.id)).not.toBeNull();
  });
});
