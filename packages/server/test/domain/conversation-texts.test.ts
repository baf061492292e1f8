/**
 * `conversationTexts` (domain/erasure.ts), which @ocs/mock's journal erasure reads before a
 * lead is erased: every text of the lead's conversation, read from the sandbox messages in
 * pages bounded by their text's bytes as the sandbox list's are (decision 0003). Before, it
 * read pages of 500 messages whatever they held: some 2 GB of strings for messages stored
 * before the render budget (2,000,000 characters each).
 */
import { beforeEach, expect, it } from 'vitest';
import { conversationTexts } from '../../src/domain/erasure.ts';
import type { EnrolmentRecord, LeadRecord } from '../../src/store/records.ts';
import type { SandboxMessageStore, Store } from '../../src/store/types.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence } from '../support/campaign-setup.ts';
import { sandboxMessage } from '../support/sandbox-message.ts';

/** The sandbox page's budget of text, in UTF-8 bytes (`sandboxPageTextBytes`). */
const budget = 2_000_000;
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = (n: number) => new Date(Date.UTC(2026, 10, 2, 9, 0, n)).toISOString();
/** Some 10 MB of text written and read: more than the default 5 s on a loaded machine. */
const large = { timeout: 60_000 };

describeBackends('conversationTexts', (store) => {
  let api: TestApi;
  let campaignId: string;
  let lead: LeadRecord;
  let enrolment: EnrolmentRecord;

  beforeEach(async () => {
    api = await createTestApi(store(), { config: { sandbox: true } });
    campaignId = await createCampaign(api, { sequence: emailSequence(1) });
    const created = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
      body: { email: 'maya@acme-robotics.example', first_name: 'Maya', campaign_id: campaignId },
    });
    lead = (await store().leads.get(api.organizationId, created.body.lead.id)) as LeadRecord;
    enrolment = (await store().enrolments.find(campaignId, lead.id)) as EnrolmentRecord;
  });

  /** The store, with every page of messages it reads recorded as its text's bytes. */
  const recordingPages = (): { store: Store; pages: number[] } => {
    const pages: number[] = [];
    const inner = store().messages;
    const messages: SandboxMessageStore = {
      ...inner,
      async listForCampaign(campaignId, filter) {
        const page = await inner.listForCampaign(campaignId, filter);
        const bytes = page.items.map((m) => Buffer.byteLength(m.subject ?? '') + Buffer.byteLength(m.body));
        pages.push(page.items.length > 1 ? bytes.reduce((sum, b) => sum + b, 0) : 0);
        return page;
      },
    };
    return { store: Object.assign(Object.create(store()) as Store, { messages }), pages };
  };

  it('gives every text of large and many messages, reading pages within the budget', large, async () => {
    const where = { organization_id: api.organizationId, campaign_id: campaignId, enrolment_id: enrolment.id };
    // Seven bodies of 900,000 bytes (two to a page) among 600 short ones (more than a page of 500).
    const expected: string[] = [];
    for (let n = 0; n < 607; n++) {
      const body = n % 100 === 50 ? `${String(n).padStart(4, '0')} `.repeat(180_000) : `Message number ${n} to Maya`;
      expected.push(body.trim());
      await store().messages.insert(
        sandboxMessage({ ...where, id: id(n), lead_id: lead.id, sent_at: at(n) }, { subject: null, body }),
      );
    }
    const { store: recording, pages } = recordingPages();
    const texts = await conversationTexts(recording, api.organizationId, lead.id);
    expect(new Set(texts)).toEqual(new Set(expected));
    expect(texts.length).toBe(607);
    expect(Math.max(...pages)).toBeLessThanOrEqual(budget);
  });

  it('ends after the last message, however few', async () => {
    const where = { organization_id: api.organizationId, campaign_id: campaignId, enrolment_id: enrolment.id };
    await store().messages.insert(
      sandboxMessage(
        { ...where, id: id(1), lead_id: lead.id, sent_at: at(1) },
        { subject: 'A subject long enough', body: '' },
      ),
    );
    const { store: recording, pages } = recordingPages();
    expect(await conversationTexts(recording, api.organizationId, lead.id)).toEqual(['A subject long enough']);
    expect(pages.length).toBe(1);
  });
});
