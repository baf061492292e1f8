/**
 * The journal's erasure of a lead's conversation (core/journal/erasure.ts), on entries made
 * by hand: a delivery's event names the lead only by its enrolment (`sequence_lead_id`), so a
 * short reply in it ("Yes, call me", under the 16 characters taken out as text everywhere)
 * is erased by field; a batch result names the lead but its `message` is the service's own
 * text, which stays (found by a review).
 */
import { expect, it } from 'vitest';
import { createJournal } from '../src/core/journal/journal.ts';
import type { LeadRecord } from '../src/core/journal/erasure.ts';
import { operationById } from '../src/core/operations.ts';

const now = () => new Date('2026-11-28T21:00:00.000Z');
const leadId = '0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f90';
const enrolmentId = '0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f91';
const campaignId = '0192f7a4-5b1c-7d2e-8f3a-4b5c6d7e8f92';

async function record(journal: ReturnType<typeof createJournal>, path: string, operationId: string, body: unknown) {
  const request = new Request(`https://api.ocs.test/v1${path}`);
  const pending = journal.begin(request, '', path, operationById(operationId as never));
  await pending?.answered(Response.json(body));
}

it("erases a short reply in a delivery's event by its enrolment, and keeps a batch result's own message", async () => {
  const journal = createJournal({ limit: 10, now });
  await record(journal, `/sandbox/campaigns/${campaignId}/deliveries`, 'listSandboxDeliveries', {
    success: true,
    deliveries: [
      {
        id: 'd1',
        payload: {
          event: 'prospect_response',
          sequence_lead_id: enrolmentId,
          channel: 'email',
          prospect_message: 'Yes, call me',
        },
      },
      {
        id: 'd2',
        payload: {
          event: 'prospect_response',
          sequence_lead_id: 'someone-else',
          channel: 'email',
          prospect_message: 'Yes, call me',
        },
      },
    ],
  });
  await record(journal, '/leads', 'listLeads', {
    success: true,
    results: [{ index: 0, status: 201, success: true, message: 'Lead created', lead_id: leadId }],
  });
  const lead = { id: leadId, email: 'shorty@example.com' } as LeadRecord;
  journal.erase(lead, { texts: [], enrolmentIds: [enrolmentId] });

  const [deliveries, batch] = journal.api.all().map((entry) => entry.response?.body as Record<string, unknown>);
  expect(deliveries?.deliveries).toEqual([
    {
      id: 'd1',
      payload: { event: 'prospect_response', sequence_lead_id: enrolmentId, channel: 'email', prospect_message: null },
    },
    {
      id: 'd2',
      payload: {
        event: 'prospect_response',
        sequence_lead_id: 'someone-else',
        channel: 'email',
        prospect_message: 'Yes, call me',
      },
    },
  ]);
  expect(batch?.results).toEqual([{ index: 0, status: 201, success: true, message: 'Lead created', lead_id: leadId }]);
});
