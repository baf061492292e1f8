/**
 * The sandbox's lists bounded by size (decision 0006, "Sandbox pages bounded by size"): a page
 * of `GET /sandbox/campaigns/{id}/messages` or `/deliveries` holds at most `limit` items and
 * stops before their text passes 2,000,000 bytes, the first item always; `count` and
 * `has_more` say so, and advancing `offset` by `count` (as the SDK's `paginate` does) walks
 * every item once, in order. Before, a page answered `limit` items whatever their size: 200 MB
 * for the default page of messages rendered to two million characters, and a 500 at `limit=500`.
 * The large rows are written straight to the store (the engine would take days to make them).
 */
import { createClient, listSandboxDeliveries, listSandboxMessages, paginate } from '@ocs/sdk';
import { beforeEach, expect, it } from 'vitest';
import { buildProspectResponse } from '../../src/delivery/payload.ts';
import { notAnalysedResponse } from '../../src/domain/replies/agent.ts';
import type { EnrolmentRecord, LeadRecord } from '../../src/store/records.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createCampaign, emailSequence } from '../support/campaign-setup.ts';
import { sandboxMessage } from '../support/sandbox-message.ts';

/** The page's budget of text, in UTF-8 bytes (`sandboxPageTextBytes`). */
const budget = 2_000_000;

interface Envelope {
  count: number;
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}
type MessagesPage = Envelope & { messages: Array<{ message_id: string; subject: string | null; body: string }> };
type DeliveriesPage = Envelope & { deliveries: Array<{ delivery_id: string; payload: unknown }> };

const utf8 = (text: string | null) => Buffer.byteLength(text ?? '');
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** Each test writes and reads some 10 MB of text: more than the default 5 s on a loaded machine. */
const large = { timeout: 60_000 };
const at = (n: number) => new Date(Date.UTC(2026, 10, 2, 9, n)).toISOString();

describeBackends('sandbox pages bounded by size', (store) => {
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

  /** Messages of these subjects and bodies, sent a minute apart in this order. */
  const insertMessages = async (texts: Array<[string | null, string]>) => {
    for (const [n, [subject, body]] of texts.entries()) {
      const where = { organization_id: api.organizationId, campaign_id: campaignId, enrolment_id: enrolment.id };
      await store().messages.insert(
        sandboxMessage({ ...where, id: id(n), lead_id: lead.id, sent_at: at(n) }, { subject, body }),
      );
    }
  };

  /** The pages from `offset` 0, each at the offset the last one's `count` leads to. */
  const walk = async <Page extends Envelope>(path: string, items: (page: Page) => Array<{ bytes: number }>) => {
    const pages: number[][] = [];
    for (let offset = 0; ;) {
      const answer = await api.call<Page>('GET', `${path}${path.includes('?') ? '&' : '?'}offset=${offset}`);
      expect(answer.status).toBe(200);
      const page = answer.body;
      const sizes = items(page).map((item) => item.bytes);
      expect(page.count).toBe(sizes.length);
      expect(page.offset).toBe(offset);
      expect(page.has_more).toBe(offset + page.count < page.total);
      // Within the budget, or a single item larger than it.
      if (page.count > 1) expect(sizes.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(budget);
      pages.push(sizes);
      offset += page.count;
      if (!page.has_more) return pages;
    }
  };

  it(
    'cuts a page of messages before its text passes 2,000,000 bytes, counting bytes, not characters',
    large,
    async () => {
      await insertMessages([
        ['S', 'x'.repeat(899_999)],
        ['S', 'x'.repeat(899_999)],
        // 300,001 characters, 600,001 bytes: with the next one, 1,700,001 characters but 2,000,001 bytes.
        ['S', 'é'.repeat(300_000)],
        [null, 'x'.repeat(1_400_000)],
        // Larger than the budget: a page of its own.
        ['S', 'y'.repeat(2_999_999)],
        ...Array.from({ length: 5 }, (_, n): [string, string] => [`Step ${n}`, `Hello ${n}`]),
      ]);
      const messages = `/v1/sandbox/campaigns/${campaignId}/messages`;
      const bytesOf = (page: MessagesPage) => page.messages.map((m) => ({ bytes: utf8(m.subject) + utf8(m.body) }));
      const pages = await walk(messages, bytesOf);
      expect(pages.map((sizes) => sizes.length)).toEqual([2, 1, 1, 1, 5]);
      expect(pages.slice(0, 4)).toEqual([[900_000, 900_000], [600_001], [1_400_000], [3_000_000]]);
      // The first page says where it stopped: two of ten, more to come.
      const first = await api.call<MessagesPage>('GET', messages);
      expect([first.body.count, first.body.total, first.body.limit, first.body.has_more]).toEqual([2, 10, 100, true]);
      // `limit` still bounds a page of small messages; `limit=500` (a 500 before) is cut the same way.
      const small = await api.call<MessagesPage>('GET', `${messages}?offset=5&limit=2`);
      expect([small.body.count, small.body.has_more]).toEqual([2, true]);
      expect((await walk(`${messages}?limit=500`, bytesOf)).map((sizes) => sizes.length)).toEqual([2, 1, 1, 1, 5]);
      // The lead filter pages the same way.
      expect((await walk(`${messages}?lead_id=${lead.id}`, bytesOf)).map((sizes) => sizes.length)).toEqual([
        2, 1, 1, 1, 5,
      ]);
    },
  );

  it("walks every message once, in order, with the SDK's paginate", large, async () => {
    await insertMessages([
      ...Array.from({ length: 7 }, (_, n): [string, string] => ['S', String(n).repeat(700_000)]),
      ['S', 'tail'],
    ]);
    const client = createClient({
      apiKey: api.key,
      baseUrl: 'http://localhost/v1',
      fetch: (input, init) => api.app.fetch(new Request(input, init)),
    });
    const pages = [];
    for await (const page of paginate(
      client,
      listSandboxMessages,
      { campaign_id: campaignId },
      { pageSize: 500 },
    ).pages()) {
      pages.push(page.items.map((message) => message.message_id));
    }
    // 700,001 bytes each: two a page; the last page holds the seventh and the short one.
    expect(pages).toEqual([
      [id(0), id(1)],
      [id(2), id(3)],
      [id(4), id(5)],
      [id(6), id(7)],
    ]);
  });

  it('cuts a page of deliveries by the bytes of their events', large, async () => {
    const sizes: number[] = [];
    for (const [n, notes] of ['n'.repeat(900_000), 'n'.repeat(900_000), 'n'.repeat(900_000), 'short'].entries()) {
      const built = await buildProspectResponse({
        enrolment: { id: enrolment.id, variation: null },
        campaign: { id: campaignId, name: 'Test campaign' },
        channel: 'email',
        lead: { ...lead, custom_fields: { notes } },
        prospectMessage: 'Yes, tell me more.',
        senderAccounts: [],
        aiResponse: notAnalysedResponse('not analysed: a test event'),
        receivedAt: new Date(at(n)),
      });
      sizes.push(built.body.byteLength);
      await store().deliveries.enqueue({
        id: id(n),
        organization_id: api.organizationId,
        campaign_id: campaignId,
        enrolment_id: enrolment.id,
        lead_id: lead.id,
        channel: 'email',
        idempotency_key: built.idempotency_key,
        body: new TextDecoder().decode(built.body),
        status: 'failed',
        attempts_made: 5,
        created_at: at(n),
        next_attempt_at: null,
        delivered_at: null,
        failed_at: at(n + 1),
        last_error: 'status 500',
        lease_owner: null,
        lease_until: null,
        cancelled_at: null,
      });
    }
    const deliveries = `/v1/sandbox/campaigns/${campaignId}/deliveries`;
    const pages = await walk(deliveries, (page: DeliveriesPage) =>
      page.deliveries.map((d) => ({ bytes: utf8(JSON.stringify(d.payload)) })),
    );
    expect(pages).toEqual([sizes.slice(0, 2), sizes.slice(2)]);
    const client = createClient({
      apiKey: api.key,
      baseUrl: 'http://localhost/v1',
      fetch: (input, init) => api.app.fetch(new Request(input, init)),
    });
    const walked = [];
    for await (const delivery of paginate(client, listSandboxDeliveries, { campaign_id: campaignId })) {
      walked.push(delivery.delivery_id);
    }
    expect(walked).toEqual([0, 1, 2, 3].map(id));
  });
});
