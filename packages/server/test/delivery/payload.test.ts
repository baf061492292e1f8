/**
 * The `prospect_response` payload: valid against the OpenAPI document and the SDK's zod
 * schema, the documented idempotency key (checked with node:crypto), the timestamp format,
 * `sender` keyed by channel, erasure of a deleted lead, and the delivery rule.
 */
import { createHash } from 'node:crypto';
import { createSchemaValidator, loadBundledDocument } from '@ocs/openapi/support';
import { ProspectResponseEvent as ProspectResponseEventSchema } from '@ocs/sdk/zod';
import { describe, expect, it } from 'vitest';
import {
  type DeliveredReply,
  type EventLeadSource,
  type EventSenderSource,
  type ProspectResponseInput,
  buildProspectResponse,
  conversationOwner,
  eventTimestamp,
  nextDeliveryNumber,
  prospectResponseKey,
  shouldDeliver,
} from '../../src/delivery/payload.ts';
import { type AiResponse, decideReply, notAnalysedResponse } from '../../src/domain/replies/agent.ts';

const document = loadBundledDocument();
const validator = createSchemaValidator(document);
const eventPointer = '#/webhooks/prospect_response/post/requestBody/content/application~1json/schema';

/** The payload must satisfy both the document and the SDK a receiver would parse it with. */
function expectValidEvent(value: unknown) {
  const result = validator.validate(eventPointer, value);
  expect(result.errors).toEqual([]);
  const parsed = ProspectResponseEventSchema.safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
}

const sequenceLeadId = 'c4a7e2d9-5f3b-4c8a-a6e1-9d2b7f4c1e83';
const campaignId = '0f1e2d3c-4b5a-4968-8776-655443322110';

const maya: EventLeadSource = {
  annual_revenue: 48_000_000,
  company: 'Acme Robotics',
  email: 'maya.patel@acmerobotics.com',
  first_name: 'Maya',
  industry: 'Industrial Automation',
  last_name: 'Patel',
  linkedin_profile: 'https://www.linkedin.com/in/maya-patel-acme',
  title: 'Co-founder & CEO',
  website: 'https://acmerobotics.com',
  employee_count: 240,
  custom_fields: { funding_stage: 'Series B' },
  deleted_at: null,
};

const emailAccount: EventSenderSource = {
  id: 'acc_em_7Hp2vL5n',
  platform: 'email',
  email: 'sam@northwind-outreach.com',
  platform_username: 'sam@northwind-outreach.com',
};
const linkedinAccount: EventSenderSource = {
  id: 'acc_li_3fK9xQ2m',
  platform: 'linkedin',
  email: null,
  platform_username: 'sam-carter-northwind',
};

const positiveResponse: AiResponse = decideReply({
  responderEnabled: true,
  settings: {
    mode: 'autopilot',
    goal: 'Book a 20-minute intro call',
    booking_url: 'https://cal.northwind-outreach.com/sam/intro-20',
    escalate_negative: false,
    handle_out_of_office: true,
  },
  analysis: { analysed: true, classification: { sentiment: 'positive', out_of_office: false } },
  message: 'Happy to chat next week.',
  channel: 'email',
  lead: maya,
});

function input(overrides: Partial<ProspectResponseInput> = {}): ProspectResponseInput {
  return {
    enrolment: { id: sequenceLeadId, variation: 'a' },
    campaign: { id: campaignId, name: 'Q4 Founders Outreach' },
    channel: 'email',
    lead: maya,
    prospectMessage: 'Happy to chat next week.',
    senderAccounts: [emailAccount, linkedinAccount],
    aiResponse: positiveResponse,
    conversationOwner: 'service',
    receivedAt: new Date(Date.UTC(2026, 10, 4, 9, 27, 51, 83)),
    ...overrides,
  };
}

/** What the tests read of the document's example events (every example has both senders). */
interface DocumentExample {
  sequence_lead_id: string;
  timestamp: string;
  channel: 'email' | 'linkedin';
  sender: {
    email: { account_id: string; platform_username: string; email: string };
    linkedin: { account_id: string; platform_username: string };
  };
  lead: Omit<EventLeadSource, 'deleted_at'>;
  ai_response: AiResponse;
  campaign: string;
  conversation_owner?: string;
  prospect_message: string;
  variation: 'a' | 'b' | null;
}

/** The example events of the webhook in the OpenAPI document. */
function documentExamples(): DocumentExample[] {
  const webhooks = document.webhooks as Record<string, Record<string, Record<string, unknown>>>;
  const requestBody = webhooks.prospect_response?.post?.requestBody as {
    content: Record<string, { examples: Record<string, { value: DocumentExample }> }>;
  };
  return Object.values(requestBody.content['application/json']?.examples ?? {}).map((example) => example.value);
}

/** The key as the OpenAPI document describes it, computed here without the server's code. */
const documentedKey = (...lines: string[]) => createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex');

describe('buildProspectResponse', () => {
  it('builds a valid event whose body is its exact UTF-8 JSON', async () => {
    const built = await buildProspectResponse(input());
    expectValidEvent(built.event);
    expect(built.body).toEqual(new TextEncoder().encode(JSON.stringify(built.event)));
    expect(JSON.parse(new TextDecoder().decode(built.body))).toEqual(built.event);
    expect(built.event.idempotency_key).toBe(built.idempotency_key);
    expect(built.event).toMatchObject({
      event: 'prospect_response',
      sequence_lead_id: sequenceLeadId,
      timestamp: '2026-11-04T09:27:51.083000+00:00',
      channel: 'email',
      campaign: 'Q4 Founders Outreach',
      conversation_owner: 'service',
      prospect_message: 'Happy to chat next week.',
      variation: 'a',
    });
    const leadFields: Partial<EventLeadSource> = { ...maya };
    delete leadFields.deleted_at; // not an event field
    expect(built.event.lead).toEqual(leadFields);
    expect(built.event.ai_response).toEqual(positiveResponse);
    // The campaign ID is not in the event (section 6), only in the key.
    expect(new TextDecoder().decode(built.body)).not.toContain(campaignId);
  });

  it('orders fields as the section 6 tables, whatever order the inputs came in', async () => {
    const shuffled = Object.fromEntries(Object.entries(positiveResponse).reverse()) as AiResponse;
    const { body } = await buildProspectResponse(input({ aiResponse: shuffled }));
    const parsed = JSON.parse(new TextDecoder().decode(body));
    expect(Object.keys(parsed)).toEqual([
      'event',
      'idempotency_key',
      'sequence_lead_id',
      'timestamp',
      'channel',
      'sender',
      'lead',
      'ai_response',
      'campaign',
      'conversation_owner',
      'prospect_message',
      'variation',
    ]);
    expect(Object.keys(parsed.lead)).toEqual([
      'annual_revenue',
      'company',
      'email',
      'first_name',
      'industry',
      'last_name',
      'linkedin_profile',
      'title',
      'website',
      'employee_count',
      'custom_fields',
    ]);
    expect(Object.keys(parsed.ai_response)).toEqual(Object.keys(positiveResponse));
    expect(Object.keys(parsed.sender)).toEqual(['email', 'linkedin']);
    expect(Object.keys(parsed.sender.email)).toEqual(['account_id', 'platform_username', 'email']);
  });

  it('gives the same bytes for the same reply (what a retry sends)', async () => {
    const [first, second] = await Promise.all([buildProspectResponse(input()), buildProspectResponse(input())]);
    expect(second.body).toEqual(first.body);
  });

  it('reproduces the examples of the OpenAPI document, field for field and in the same order', async () => {
    const examples = documentExamples();
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      const built = await buildProspectResponse({
        enrolment: { id: example.sequence_lead_id, variation: example.variation },
        campaign: { id: campaignId, name: example.campaign },
        channel: example.channel,
        lead: { ...example.lead, deleted_at: null },
        prospectMessage: example.prospect_message,
        senderAccounts: [
          { id: example.sender.email.account_id, platform: 'email', ...example.sender.email },
          { id: example.sender.linkedin.account_id, platform: 'linkedin', email: null, ...example.sender.linkedin },
        ],
        aiResponse: example.ai_response,
        conversationOwner: example.conversation_owner,
        receivedAt: new Date(example.timestamp),
      });
      // A Date has milliseconds; the document's example timestamps have microseconds, and
      // their keys hash a campaign ID the example does not show.
      const comparable = { ...example, idempotency_key: built.event.idempotency_key, timestamp: built.event.timestamp };
      expect(new TextDecoder().decode(built.body)).toBe(JSON.stringify(comparable));
      expect(built.event.timestamp.slice(0, 23)).toBe(example.timestamp.slice(0, 23));
    }
  });

  it('leaves conversation_owner out when the conversation has no owner', async () => {
    for (const owner of [null, undefined]) {
      const { event } = await buildProspectResponse(input({ conversationOwner: owner }));
      expect(Object.hasOwn(event, 'conversation_owner')).toBe(false);
      expectValidEvent(event);
    }
    const { event } = await buildProspectResponse(input({ conversationOwner: 'lp_responder' }));
    expect(event.conversation_owner).toBe('lp_responder');
  });

  it('carries a not-analysed ai_response with every field but goal null', async () => {
    const { event } = await buildProspectResponse(
      input({ aiResponse: notAnalysedResponse('skipped: no reply text'), prospectMessage: 'Sent from my iPhone' }),
    );
    expectValidEvent(event);
    expect(Object.entries(event.ai_response).filter(([, value]) => value !== null)).toEqual([
      ['goal', 'skipped: no reply text'],
    ]);
  });

  it('validates for every outcome of the reply agent', async () => {
    for (const responderEnabled of [true, false])
      for (const mode of ['autopilot', 'copilot'] as const)
        for (const sentiment of ['positive', 'neutral', 'negative'] as const)
          for (const out_of_office of [true, false]) {
            const aiResponse = decideReply({
              responderEnabled,
              settings: { mode, goal: null, booking_url: null, escalate_negative: true, handle_out_of_office: false },
              analysis: { analysed: true, classification: { sentiment, out_of_office } },
              message: 'x',
              channel: 'linkedin',
              lead: maya,
            });
            const { event } = await buildProspectResponse(
              input({
                aiResponse,
                channel: 'linkedin',
                conversationOwner: conversationOwner(responderEnabled, aiResponse),
              }),
            );
            expectValidEvent(event);
          }
  });
});

describe('deleted lead', () => {
  const erasedLead: EventLeadSource = {
    ...maya,
    email: null,
    first_name: null,
    last_name: null,
    deleted_at: '2026-11-05T10:00:00.000Z',
  };

  it.each([
    ['erased in place', erasedLead],
    ['gone', null],
  ])('sends no personal data when the lead is %s', async (_how, lead) => {
    const { event, body } = await buildProspectResponse(input({ lead }));
    expectValidEvent(event);
    expect(event.lead).toEqual({
      annual_revenue: null,
      company: null,
      email: null,
      first_name: null,
      industry: null,
      last_name: null,
      linkedin_profile: null,
      title: null,
      website: null,
      employee_count: null,
      custom_fields: {},
    });
    expect(event.prospect_message).toBeNull();
    expect(event.ai_response.responder_message).toBeNull();
    expect(event.ai_response.sdr_brief).toBeNull();
    expect(event.ai_response.sentiment).toBe('positive');
    const text = new TextDecoder().decode(body);
    for (const personal of ['Maya', 'Acme', 'Happy to chat', 'Series B']) expect(text).not.toContain(personal);
  });

  it('keeps null lead fields null and copies custom fields for a live lead', async () => {
    const sparse = { ...maya, company: null, annual_revenue: null, custom_fields: {} };
    const { event } = await buildProspectResponse(input({ lead: sparse }));
    expect(event.lead).toMatchObject({ company: null, annual_revenue: null, custom_fields: {}, first_name: 'Maya' });
  });
});

describe('idempotency_key', () => {
  it('is the SHA-256 hex of lead, campaign, channel and message joined with line feeds', async () => {
    const { idempotency_key } = await buildProspectResponse(input());
    expect(idempotency_key).toMatch(/^[0-9a-f]{64}$/);
    expect(idempotency_key).toBe(documentedKey(sequenceLeadId, campaignId, 'email', 'Happy to chat next week.'));
  });

  it('hashes the message as UTF-8, line feeds and all', async () => {
    const message = 'Ja, gerne \u2014 n\u00e4chste Woche?\n\nGr\u00fc\u00dfe\r\n\ud83d\ude80';
    const key = await prospectResponseKey({
      sequenceLeadId,
      campaignId,
      channel: 'linkedin',
      prospectMessage: message,
    });
    expect(key).toBe(documentedKey(sequenceLeadId, campaignId, 'linkedin', message));
  });

  it('hashes a null message as the empty string', async () => {
    const key = await prospectResponseKey({ sequenceLeadId, campaignId, channel: 'email', prospectMessage: null });
    expect(key).toBe(documentedKey(sequenceLeadId, campaignId, 'email', ''));
  });

  it('changes with each part', async () => {
    const base = { sequenceLeadId, campaignId, channel: 'email' as const, prospectMessage: 'Yes' };
    const keys = await Promise.all([
      prospectResponseKey(base),
      prospectResponseKey({ ...base, sequenceLeadId: 'd4a7e2d9-5f3b-4c8a-a6e1-9d2b7f4c1e83' }),
      prospectResponseKey({ ...base, campaignId: '1f1e2d3c-4b5a-4968-8776-655443322110' }),
      prospectResponseKey({ ...base, channel: 'linkedin' }),
      prospectResponseKey({ ...base, prospectMessage: 'Yes!' }),
      prospectResponseKey({ ...base, deliveryNumber: 2 }),
    ]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives a redelivery a new key even for the same message, marked on the channel line', async () => {
    const first = await buildProspectResponse(input({ prospectMessage: 'Yes' }));
    const again = await buildProspectResponse(input({ prospectMessage: 'Yes', deliveryNumber: 2 }));
    expect(again.idempotency_key).not.toBe(first.idempotency_key);
    expect(first.idempotency_key).toBe(documentedKey(sequenceLeadId, campaignId, 'email', 'Yes'));
    expect(again.idempotency_key).toBe(documentedKey(sequenceLeadId, campaignId, 'email#2', 'Yes'));
  });

  it('refuses IDs that would make the encoding ambiguous, and bad delivery numbers', async () => {
    const base = { sequenceLeadId, campaignId, channel: 'email' as const, prospectMessage: 'x' };
    await expect(prospectResponseKey({ ...base, campaignId: 'a\nb' })).rejects.toThrow(RangeError);
    await expect(prospectResponseKey({ ...base, sequenceLeadId: 'a\r' })).rejects.toThrow(RangeError);
    for (const deliveryNumber of [0, -1, 1.5]) {
      await expect(prospectResponseKey({ ...base, deliveryNumber })).rejects.toThrow(RangeError);
    }
  });
});

describe('eventTimestamp', () => {
  const format = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/;

  it.each([
    [Date.UTC(2026, 10, 22, 4, 16, 35, 123), '2026-11-22T04:16:35.123000+00:00'],
    [Date.UTC(2026, 0, 1, 0, 0, 0, 0), '2026-01-01T00:00:00.000000+00:00'],
    [Date.UTC(1999, 11, 31, 23, 59, 59, 999), '1999-12-31T23:59:59.999000+00:00'],
  ])('%s → %s', (time, expected) => {
    const stamp = eventTimestamp(new Date(time));
    expect(stamp).toBe(expected);
    expect(stamp).toMatch(format);
    expect(Date.parse(stamp)).toBe(time);
  });

  it('is UTC whatever the offset of the Date it was given', () => {
    expect(eventTimestamp(new Date('2026-11-22T06:16:35.5+02:00'))).toBe('2026-11-22T04:16:35.500000+00:00');
  });

  it('refuses an invalid date and years that do not fit the format', () => {
    expect(() => eventTimestamp(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => eventTimestamp(new Date(Date.UTC(10_000, 0, 1)))).toThrow(RangeError);
  });
});

describe('sender', () => {
  const secondEmail: EventSenderSource = {
    id: 'acc_em_second',
    platform: 'email',
    email: 'alex@northwind-outreach.com',
    platform_username: 'alex@northwind-outreach.com',
  };

  it.each<[string, EventSenderSource[] | null, string | null, unknown]>([
    [
      'both channels assigned',
      [emailAccount, linkedinAccount],
      null,
      {
        email: {
          account_id: 'acc_em_7Hp2vL5n',
          platform_username: 'sam@northwind-outreach.com',
          email: 'sam@northwind-outreach.com',
        },
        linkedin: { account_id: 'acc_li_3fK9xQ2m', platform_username: 'sam-carter-northwind' },
      },
    ],
    [
      'only email assigned: linkedin left out',
      [emailAccount],
      null,
      {
        email: {
          account_id: 'acc_em_7Hp2vL5n',
          platform_username: 'sam@northwind-outreach.com',
          email: 'sam@northwind-outreach.com',
        },
      },
    ],
    [
      'only linkedin assigned: email left out',
      [linkedinAccount],
      null,
      { linkedin: { account_id: 'acc_li_3fK9xQ2m', platform_username: 'sam-carter-northwind' } },
    ],
    ['no account assigned', [], null, {}],
    ['accounts could not be looked up', null, null, {}],
    [
      'the first account of a channel by default',
      [secondEmail, emailAccount],
      null,
      {
        email: {
          account_id: 'acc_em_second',
          platform_username: 'alex@northwind-outreach.com',
          email: 'alex@northwind-outreach.com',
        },
      },
    ],
    [
      'the account the reply arrived on, when assigned',
      [secondEmail, emailAccount],
      'acc_em_7Hp2vL5n',
      {
        email: {
          account_id: 'acc_em_7Hp2vL5n',
          platform_username: 'sam@northwind-outreach.com',
          email: 'sam@northwind-outreach.com',
        },
      },
    ],
    [
      'an email account known only by its address',
      [{ ...emailAccount, platform_username: null }],
      null,
      {
        email: {
          account_id: 'acc_em_7Hp2vL5n',
          platform_username: 'sam@northwind-outreach.com',
          email: 'sam@northwind-outreach.com',
        },
      },
    ],
    [
      'an email account with no address at all',
      [{ ...emailAccount, email: null, platform_username: null }],
      null,
      { email: null },
    ],
    [
      'a linkedin account without a username',
      [{ ...linkedinAccount, platform_username: null }],
      null,
      { linkedin: { account_id: 'acc_li_3fK9xQ2m' } },
    ],
  ])('%s', async (_case, senderAccounts, replyAccountId, expected) => {
    const { event } = await buildProspectResponse(input({ senderAccounts, replyAccountId }));
    expect(event.sender).toEqual(expected);
    expectValidEvent(event);
  });
});

describe('conversationOwner', () => {
  const analysed = positiveResponse;
  const humanOwned = { ...positiveResponse, agent_action: 'skip', conversation_status: 'human_owned' } as const;

  it.each<[string, boolean, AiResponse, 'service' | null]>([
    ['responder enabled, agent handled the reply', true, analysed, 'service'],
    ['responder disabled', false, analysed, null],
    ['reply not analysed', true, notAnalysedResponse('skipped: no reply text'), null],
    ['a person took the conversation over', true, humanOwned, null],
  ])('%s', (_case, enabled, response, expected) => {
    expect(conversationOwner(enabled, response)).toBe(expected);
  });
});

describe('shouldDeliver (section 6 rule 4, per sequence lead)', () => {
  const positive: DeliveredReply = { sentiment: 'positive', out_of_office: false };
  const neutral: DeliveredReply = { sentiment: 'neutral', out_of_office: false };
  const negative: DeliveredReply = { sentiment: 'negative', out_of_office: false };
  const ooo: DeliveredReply = { sentiment: 'neutral', out_of_office: true };
  const oooPositive: DeliveredReply = { sentiment: 'positive', out_of_office: true };
  const notAnalysed: DeliveredReply = { sentiment: null, out_of_office: null };

  it.each<[string, boolean, DeliveredReply[], DeliveredReply]>([
    ['first reply, positive', true, [], positive],
    ['first reply, negative', true, [], negative],
    ['first reply, not analysed', true, [], notAnalysed],
    ['positive after a neutral one', true, [neutral], positive],
    ['positive after a negative one', true, [negative], positive],
    ['positive after an out-of-office one', true, [ooo], positive],
    ['positive after a not-analysed one', true, [notAnalysed], positive],
    ['positive after several non-positive ones', true, [neutral, negative], positive],
    ['a second positive', false, [positive], positive],
    ['positive after non-positive ones and a positive', false, [neutral, positive], positive],
    ['neutral after neutral', false, [neutral], neutral],
    ['negative after positive', false, [positive], negative],
    ['out of office after neutral', false, [neutral], ooo],
    ['an out-of-office reply is not positive', false, [neutral], oooPositive],
    ['not analysed after neutral', false, [neutral], notAnalysed],
  ])('%s → %s', (_case, expected, previous, reply) => {
    expect(shouldDeliver(previous, reply)).toBe(expected);
  });

  it('numbers deliveries so that a redelivery gets a new key', () => {
    expect(nextDeliveryNumber([])).toBe(1);
    expect(nextDeliveryNumber([neutral])).toBe(2);
  });
});
