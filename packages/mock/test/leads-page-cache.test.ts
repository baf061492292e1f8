/**
 * The mock keeps the leads page as its JSON text until its data changes (`cacheAnswers`,
 * the server's `http/middleware/answer-cache.ts`). Whatever changes the data must never
 * leave a kept page behind: writes through the API, `reset()`, the sandbox (a reply pauses
 * an enrolment, shown on the page); and the scenarios, overrides and validation still come
 * first. Over MSW here; over the socket in leads-page-cache-standalone.test.ts.
 */
import {
  createLead,
  deleteLead,
  listLeads,
  OcsBadRequestError,
  OcsInternalServerError,
  OcsRateLimitError,
  updateLead,
} from '@ocs/sdk';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/setup.ts';

const { mock, client } = await mockedApi({ seed: 5 });
const firstPage = () => listLeads(client({ maxRetries: 0 }), { limit: 20 });
const emails = (page: { leads: Array<{ email?: string | null }> }) => page.leads.map((lead) => lead.email);

describe('the kept leads page (in process)', () => {
  it('shows a lead created, updated and deleted through the API at once', async () => {
    const seeded = await firstPage();
    expect(await firstPage()).toEqual(seeded);

    const { lead } = (await createLead(client(), { email: 'new.lead@example.com', first_name: 'New' })) as {
      lead: { id: string };
    };
    const withNew = await firstPage();
    expect(emails(withNew)[0]).toBe('new.lead@example.com');
    expect(withNew.total).toBe(seeded.total + 1);

    await updateLead(client(), { lead_id: lead.id, first_name: 'Renamed' });
    expect((await firstPage()).leads[0]?.first_name).toBe('Renamed');

    await deleteLead(client(), { lead_id: lead.id });
    expect(await firstPage()).toEqual(seeded);
  });

  it('is the seeded page again after reset()', async () => {
    const seeded = await firstPage();
    const [lead] = seeded.leads;
    if (!lead) throw new Error('seeded page empty');
    await createLead(client(), { email: 'before.reset@example.com' });
    await deleteLead(client(), { lead_id: lead.id });
    const changed = await firstPage();
    expect(emails(changed)).toContain('before.reset@example.com');
    expect(changed.leads.map((l) => l.id)).not.toContain(lead.id);

    mock.reset();
    expect(await firstPage()).toEqual(seeded);
  });

  it('shows what the sandbox changed (a reply pauses the enrolment)', async () => {
    const campaign = mock.data.campaigns[0];
    const lead = mock.data.leads.find((l) => l.enrolments[0]?.campaign_id === campaign?.id);
    if (!lead) throw new Error('seeded lead missing');
    const statusOnPage = async () =>
      (await listLeads(client(), { limit: 100 })).leads.find((l) => l.id === lead.id)?.enrolments?.[0]?.status;
    const before = await statusOnPage();
    expect(before).not.toBe('paused');
    await mock.sandbox.advanceClock({ seconds: 1 }); // the first email goes out
    await mock.sandbox.reply({ leadId: lead.id, channel: 'email', message: 'Not now, thanks.' });
    expect(await statusOnPage()).toBe('paused');
  });

  it('still answers the scenarios, overrides and validation first', async () => {
    const seeded = await firstPage();

    mock.scenarios.fail('listLeads', { status: 500, code: 'INTERNAL_ERROR', times: 1 });
    await expect(firstPage()).rejects.toBeInstanceOf(OcsInternalServerError);
    expect(await firstPage()).toEqual(seeded);

    mock.use(mock.http.get('/leads', ({ response }) => response(200).json({ ...seeded, total: 999 })));
    expect((await firstPage()).total).toBe(999);
    mock.reset();
    expect(await firstPage()).toEqual(seeded);

    await expect(listLeads(client({ maxRetries: 0 }), { limit: 0 })).rejects.toBeInstanceOf(OcsBadRequestError);

    mock.scenarios.rateLimit({ perEndpoint: 1 });
    expect(await firstPage()).toEqual(seeded);
    await expect(firstPage()).rejects.toBeInstanceOf(OcsRateLimitError);
  });
});
