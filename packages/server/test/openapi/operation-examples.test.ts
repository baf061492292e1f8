/**
 * The examples of the operations' own responses (not the shared ones of
 * `components/responses`, which shared-error-examples.test.ts checks) say what the server
 * answers, word for word: users read them in the API reference and get them from Prism. Each
 * case below is made on the server, on one organization set up as the examples describe it
 * (the accounts, campaigns and leads they name), and the answer's texts are compared with the
 * example's: `error`, `message`, `details.errors[].field/message`, and the texts of the
 * reports some examples carry (a preflight's `checks[].detail`, its `issues[].code/message/fix`,
 * an import's `results[].message`). Only the top-level fields the example has are compared;
 * what varies from one answer to the next (IDs, `req_…` request IDs, times, and the counts
 * shared-error-examples.test.ts makes generic) is made generic on both sides. The counts these
 * examples quote (38 leads, 3 blocking issues, 2 rules) are made by the setup, so they are
 * compared as they are.
 *
 * Every case of the alignment check of commit 3b703e2 is here: each example's text can be
 * reproduced (the setup makes the accounts, names and counts the examples mention), so none is
 * skipped.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/openapi/document.ts';
import type { Sequence, SenderAccountRecord } from '../../src/store/records.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { type ApiAnswer, type TestApi, createTestApi } from '../support/api.ts';
import { createCampaign, emailSequence, q4Sequence } from '../support/campaign-setup.ts';

// ---------------------------------------------------------------------------------------------
// The document's examples

type Node = Record<string, unknown>;
const document = openApiDocument as unknown as Node;

/** `node`, or what its `$ref` (a local JSON pointer, `~1` for `/`) points to, followed to the end. */
function resolve(node: unknown): Node {
  let current = node as Node;
  while (typeof current?.$ref === 'string') {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    current = pointer.reduce<Node>((n, part) => n[part.replace(/~1/g, '/').replace(/~0/g, '~')] as Node, document);
  }
  return current;
}

const operations = new Map<string, Node>();
for (const item of Object.values(document.paths as Node)) {
  for (const operation of Object.values(item as Node)) {
    const id = (operation as Node | null)?.operationId;
    if (typeof id === 'string') operations.set(id, operation as Node);
  }
}

/** The value of the example `name` of the `status` response of `operationId`. */
function exampleOf(operationId: string, status: number, name: string): Node {
  const operation = operations.get(operationId);
  expect(operation, `operation ${operationId}`).toBeDefined();
  const response = resolve((resolve(operation).responses as Node)[String(status)]);
  const examples = ((response.content as Node | undefined)?.['application/json'] as Node | undefined)?.examples as
    Node | undefined;
  expect(examples?.[name], `${operationId} ${status} has an example ${name}`).toBeDefined();
  return resolve(examples?.[name]).value as Node;
}

// ---------------------------------------------------------------------------------------------
// The comparison

/** A text with what varies from one answer to the next (IDs, request IDs, times, counts) made generic. */
const generic = (text: string) =>
  text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/req_[0-9a-f]{24}/g, '<request_id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)/g, '<time>')
    .replace(/of \d+ requests/g, 'of <n> requests')
    .replace(/after \d+ seconds/g, 'after <n> seconds');

/** The keys whose values a reader reads: codes, field names and sentences. */
const TEXT_KEYS = new Set(['error', 'code', 'field', 'message', 'detail', 'fix']);

/** Every text of `value` under a key of TEXT_KEYS, by its path (`details.errors[0].message`), made generic. */
function texts(value: unknown, path = '', found: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value)) value.forEach((item, i) => texts(item, `${path}[${i}]`, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (typeof item === 'string' && TEXT_KEYS.has(key)) found[at] = generic(item);
      else texts(item, at, found);
    }
  }
  return found;
}

/** The answer's texts under the example's top-level fields, and the example's. */
function comparable(answer: Node, example: Node) {
  const sameFields = Object.fromEntries(Object.keys(example).map((key) => [key, answer[key]]));
  return { server: texts(sameFields), example: texts(example) };
}

// ---------------------------------------------------------------------------------------------
// The organization the examples describe

const LINKEDIN_SAM = 'acc_li_3fK9xQ2m';
const EMAIL_SAM = 'acc_em_7Hp2vL5n';
const EMAIL_DISCONNECTED = 'acc_em_2Qw8zR4t';
const LINKEDIN_LENA = 'acc_li_9Tn4bW6y';
/** IDs of nothing in the organization (the examples' own, for reading; any would do). */
const UNKNOWN_LEAD = '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40';
const UNKNOWN_CAMPAIGN = '7d2f4b81-6c3a-4e9d-b5f2-8a1c3e6d9b27';
const UNKNOWN_STAGE = '0b3e6a9c-2d5f-4e8a-9c1b-6f4a2d8e5c07';
const UNKNOWN_DEAL = '1a5c8e2f-9b3d-4e7a-8f6c-4b2d9e1a7c35';
const UNKNOWN_PIPELINE = '2f6b9d4e-8a1c-4f3e-b7d2-5c9a1e4f8b36';
const WEBHOOK_URL = 'https://hooks.northwind-outreach.com/ocs/prospect-response';

interface World {
  api: TestApi;
  /** Q4 Founders Outreach: passes the preflight (sequence, AI field, both Sams, 38 leads). */
  q4: string;
  /** EMEA Expansion: active, sends from Lena Fischer. */
  emea: string;
  /** Fintech CFOs: email only, no variation_b; the disconnected mailbox and Lena assigned, no lead. */
  fintech: string;
  /** No sequence yet; the batch import enrols its lead here (so Q4 keeps its 38). */
  noSequence: string;
  /** A connection step then a conditional (step 3) whose yes branch holds step 4. */
  branching: string;
  /** A sequence stored before step IDs had to be unique: step 1 in both variations. */
  legacy: string;
  maya: string;
  jonas: string;
  webhook: string;
  pipeline: string;
  deal: string;
}

async function setUp(): Promise<World> {
  const api = await createTestApi(createMemoryStore());
  const org = api.organizationId;
  const call = async <T = Node>(method: string, path: string, body?: unknown) => {
    const answer = await api.call<T>(method, path, { body });
    if (answer.status >= 300) throw new Error(`setup: ${method} ${path} answered ${answer.status}`);
    return answer.body;
  };

  const at = '2026-11-02T09:00:00.000+00:00';
  const account = (
    id: string,
    platform: SenderAccountRecord['platform'],
    label: string,
    status: SenderAccountRecord['status'],
  ): SenderAccountRecord => {
    const email = platform === 'email' ? label : null;
    return {
      id,
      organization_id: org,
      platform,
      label,
      status,
      email,
      platform_username: label,
      daily_limit: 50,
      // The examples' mailboxes: SPF and DKIM pass, the domain has no DMARC record.
      email_auth: email ? { spf: true, dkim: true, dmarc: false } : null,
      connected_at: at,
      created_at: at,
    };
  };
  const accounts = [
    account(LINKEDIN_SAM, 'linkedin', 'Sam Carter', 'connected'),
    account(LINKEDIN_LENA, 'linkedin', 'Lena Fischer', 'connected'),
    account(EMAIL_SAM, 'email', 'sam@northwind-outreach.com', 'connected'),
    account(EMAIL_DISCONNECTED, 'email', 'outbound2@northwind-outreach.com', 'disconnected'),
  ];
  for (const record of accounts) await api.store.accounts.insert(record);

  const q4 = await createCampaign(api, { name: 'Q4 Founders Outreach', sequence: q4Sequence() });
  await call('POST', `/v1/campaigns/${q4}/ai-fields`, {
    field_name: 'icebreaker',
    ai_instructions: 'Write one friendly sentence.',
    fallback_value: 'I noticed your team has been growing its sales org this year.',
  });
  await call('PUT', `/v1/campaigns/${q4}/senders`, { account_ids: [LINKEDIN_SAM, EMAIL_SAM] });
  const leads = Array.from({ length: 38 }, (_, i) => ({
    email: `lead${i}@example.com`,
    first_name: `First${i}`,
    company: `Company ${i}`,
    campaign_id: q4,
  }));
  await call('POST', '/v1/leads', { leads });

  const emea = await createCampaign(api, { name: 'EMEA Expansion' });
  await api.store.campaigns.update(org, emea, { is_active: true, enabled_accounts: [LINKEDIN_LENA] });
  const fintech = await createCampaign(api, { name: 'Fintech CFOs', sequence: emailSequence(2) });
  await api.store.campaigns.update(org, fintech, { enabled_accounts: [EMAIL_DISCONNECTED, LINKEDIN_LENA] });
  const noSequence = await createCampaign(api, { name: 'No sequence' });
  const branching = await createCampaign(api, {
    name: 'Branching',
    sequence: {
      variation_a: [
        { id: 1, type: 'email', subject: 'Hello', content: 'Hi {first_name}', delay: 0 },
        { id: 2, type: 'linkedin_connection', message: 'Hi', delay: 1 },
        {
          id: 3,
          type: 'conditional',
          delay: 1,
          branches: { yes: [{ id: 4, type: 'linkedin_message', message: 'Thanks', delay: 1 }], no: [] },
        },
      ],
    },
  });
  const legacy = await createCampaign(api, { name: 'Legacy' });
  const duplicated: Sequence = {
    variation_a: [{ id: 1, type: 'email', subject: 'A', content: 'a', delay: 0 }],
    variation_b: [{ id: 1, type: 'email', subject: 'B', content: 'b', delay: 0 }],
  };
  // Stored before step IDs had to be unique: written through the store, as an old row would be.
  await api.store.campaigns.replaceSequence(org, legacy, duplicated, 0, at);

  type Created = { lead: { id: string } };
  const maya = (await call<Created>('POST', '/v1/leads', { email: 'maya.patel@acmerobotics.com', first_name: 'Maya' }))
    .lead.id;
  const jonas = (await call<Created>('POST', '/v1/leads', { email: 'jonas.weber@brightlane.io', first_name: 'Jonas' }))
    .lead.id;
  const webhook = (
    await call<{ webhook_id: string }>('POST', `/v1/campaigns/${noSequence}/webhooks`, {
      webhook_url: WEBHOOK_URL,
    })
  ).webhook_id;
  const [pipeline] = (await call<{ pipelines: { id: string }[] }>('GET', '/v1/crm/pipelines')).pipelines;
  const deal = (await call<{ deal: { id: string } }>('POST', '/v1/crm/deals', { name: 'Acme Robotics pilot' })).deal.id;

  if (!webhook || !pipeline) throw new Error('setup: no webhook or no pipeline');
  return { api, q4, emea, fintech, noSequence, branching, legacy, maya, jonas, webhook, pipeline: pipeline.id, deal };
}

// ---------------------------------------------------------------------------------------------
// The cases

interface Case {
  operationId: string;
  status: number;
  /** The example's name under the response's `content.application/json.examples`. */
  example: string;
  request: () => Promise<ApiAnswer<unknown>>;
}

let w: World;
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  w.api.call<unknown>(method, path, { body, headers });
const limit = (path: string, over: number) => () => call('GET', `${path}?limit=${over}`);
const dateFilter = (endpoint: string, value: string) => () =>
  call('GET', `/v1/campaigns/${w.q4}/${endpoint}?date_filter=${encodeURIComponent(value)}`);
const noContact = { first_name: 'Maya', last_name: 'Patel' };
const unknownCampaign = { email: 'new@example.com', campaign_id: UNKNOWN_CAMPAIGN };

const cases: Case[] = [
  // Accounts
  {
    operationId: 'createAccountConnectLink',
    status: 400,
    example: 'invalid_account',
    request: () => call('POST', '/v1/accounts/connect-link', { platform: 'email', account_id: 'acc_em_9Zz0aa11' }),
  },
  { operationId: 'listAccounts', status: 400, example: 'validation_error', request: limit('/v1/accounts', 501) },

  // Campaigns
  { operationId: 'listCampaigns', status: 400, example: 'validation_error', request: limit('/v1/campaigns', 501) },
  {
    operationId: 'createCampaign',
    status: 409,
    example: 'idempotency_key_reused',
    request: async () => {
      const headers = { 'Idempotency-Key': '0d6c1f3a-create-q4-founders' };
      await call('POST', '/v1/campaigns', { name: 'Q4 Founders Outreach' }, headers);
      return call('POST', '/v1/campaigns', { name: 'Q4 Founders Outreach 2' }, headers);
    },
  },
  {
    operationId: 'createCampaign',
    status: 400,
    example: 'sequence_validation_failed',
    request: () =>
      call('POST', '/v1/campaigns', {
        name: 'Invalid',
        sequence: {
          variation_a: [
            { id: 1, type: 'email', subject: '', content: 'x', delay: 0 },
            { id: 2, type: 'linkedin_connection', message: 'hi', delay: 1 },
          ],
        },
      }),
  },
  {
    operationId: 'updateCampaign',
    status: 400,
    example: 'validation_error',
    request: () => call('PATCH', `/v1/campaigns/${w.q4}`, {}),
  },
  {
    operationId: 'updateCampaign',
    status: 409,
    example: 'preflight_failed',
    request: () => call('PATCH', `/v1/campaigns/${w.fintech}`, { is_active: true }),
  },
  {
    operationId: 'getCampaignPreflight',
    status: 200,
    example: 'ready',
    request: () => call('GET', `/v1/campaigns/${w.q4}/preflight`),
  },
  {
    operationId: 'getCampaignPreflight',
    status: 200,
    example: 'blocked_draft',
    request: () => call('GET', `/v1/campaigns/${w.fintech}/preflight`),
  },
  {
    operationId: 'previewCampaign',
    status: 404,
    example: 'lead_not_found',
    request: () => call('POST', `/v1/campaigns/${w.q4}/preview`, { lead_id: UNKNOWN_LEAD }),
  },
  {
    operationId: 'getCampaignQueue',
    status: 400,
    example: 'validation_error',
    request: () => call('GET', `/v1/campaigns/${w.q4}/queue?limit=501`),
  },

  // Sequences
  {
    operationId: 'replaceSequence',
    status: 400,
    example: 'sequence_validation_failed',
    request: () =>
      call('PUT', `/v1/campaigns/${w.q4}/sequence`, {
        sequence: {
          variation_a: [
            { id: 1, type: 'email', subject: 's', content: 'c', delay: 0 },
            { id: 2, type: 'linkedin_message', message: 'm', delay: 1 },
            { id: 3, type: 'view_profile', delay: 120 },
          ],
        },
      }),
  },
  {
    operationId: 'replaceSequence',
    status: 400,
    example: 'validation_error',
    request: () => call('PUT', `/v1/campaigns/${w.q4}/sequence`, { sequence: {} }),
  },
  {
    operationId: 'updateSequenceStep',
    status: 400,
    example: 'validation_error',
    request: () => call('PATCH', `/v1/campaigns/${w.q4}/sequence/steps/11`, { updates: { type: 'email' } }),
  },
  {
    operationId: 'updateSequenceStep',
    status: 400,
    example: 'no_sequence',
    request: () => call('PATCH', `/v1/campaigns/${w.noSequence}/sequence/steps/1`, { updates: { delay: 1 } }),
  },
  {
    operationId: 'updateSequenceStep',
    status: 400,
    example: 'sequence_validation_failed',
    request: () => call('PATCH', `/v1/campaigns/${w.branching}/sequence/steps/4`, { updates: { delay: 120 } }),
  },
  {
    operationId: 'updateSequenceStep',
    status: 409,
    example: 'step_id_ambiguous',
    request: () => call('PATCH', `/v1/campaigns/${w.legacy}/sequence/steps/1`, { updates: { delay: 1 } }),
  },

  // Senders
  {
    operationId: 'replaceSenders',
    status: 400,
    example: 'validation_error',
    request: () => call('PUT', `/v1/campaigns/${w.fintech}/senders`, { account_ids: [] }),
  },
  {
    operationId: 'replaceSenders',
    status: 400,
    example: 'invalid_account',
    request: () => call('PUT', `/v1/campaigns/${w.fintech}/senders`, { account_ids: ['acc_li_8Zr4mW1k'] }),
  },
  {
    operationId: 'replaceSenders',
    status: 409,
    example: 'account_not_connected',
    request: () => call('PUT', `/v1/campaigns/${w.fintech}/senders`, { account_ids: [EMAIL_DISCONNECTED] }),
  },
  {
    operationId: 'replaceSenders',
    status: 409,
    example: 'account_in_use',
    request: () => call('PUT', `/v1/campaigns/${w.fintech}/senders`, { account_ids: [LINKEDIN_LENA] }),
  },

  // Responder
  {
    operationId: 'updateResponderSettings',
    status: 400,
    example: 'validation_error',
    request: () => call('PATCH', `/v1/campaigns/${w.q4}/responder`, { mode: 'auto' }),
  },

  // A/B testing
  {
    operationId: 'setAbTesting',
    status: 409,
    example: 'variation_b_missing',
    request: () => call('POST', `/v1/campaigns/${w.fintech}/ab-testing`, { enabled: true, traffic_split: 50 }),
  },
  {
    operationId: 'setAbTesting',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', `/v1/campaigns/${w.q4}/ab-testing`, {}),
  },
  {
    operationId: 'promoteAbVariation',
    status: 409,
    example: 'variation_b_missing',
    request: () => call('POST', `/v1/campaigns/${w.fintech}/ab-testing/promote`, { variation: 'b' }),
  },
  {
    operationId: 'promoteAbVariation',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', `/v1/campaigns/${w.q4}/ab-testing/promote`, { variation: 'c' }),
  },

  // Analytics: each example names the date_filter it was refused
  {
    operationId: 'getCampaignAnalysis',
    status: 400,
    example: 'invalid_date_filter',
    request: dateFilter('analysis', 'last month'),
  },
  {
    operationId: 'getDailyStats',
    status: 400,
    example: 'invalid_date_filter',
    request: dateFilter('daily-stats', '30 days'),
  },
  {
    operationId: 'getStepFunnel',
    status: 400,
    example: 'invalid_date_filter',
    request: dateFilter('step-funnel', 'last week'),
  },
  {
    operationId: 'getSenderBreakdown',
    status: 400,
    example: 'invalid_date_filter',
    request: dateFilter('senders/breakdown', 'yesterday'),
  },
  {
    operationId: 'getPersonalizationQuality',
    status: 400,
    example: 'invalid_date_filter',
    request: dateFilter('personalization-quality', '2026-13-01'),
  },
  {
    operationId: 'getAbCohorts',
    status: 400,
    example: 'invalid_date_filter',
    request: dateFilter('ab-cohorts', '-7d'),
  },

  // Webhooks
  {
    operationId: 'listWebhooks',
    status: 400,
    example: 'validation_error',
    request: () => call('GET', `/v1/campaigns/${w.q4}/webhooks?limit=501`),
  },
  {
    operationId: 'createWebhook',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', `/v1/campaigns/${w.q4}/webhooks`, { webhook_url: WEBHOOK_URL, secret: 'short' }),
  },
  {
    operationId: 'createWebhook',
    status: 400,
    example: 'invalid_webhook_url',
    request: () => call('POST', `/v1/campaigns/${w.q4}/webhooks`, { webhook_url: 'https://10.0.4.17/hooks' }),
  },
  {
    operationId: 'activateWebhook',
    status: 400,
    example: 'validation_error',
    request: () =>
      call('POST', `/v1/campaigns/${w.q4}/webhook/activate`, { webhook_url: WEBHOOK_URL, secret: 'short' }),
  },
  {
    operationId: 'activateWebhook',
    status: 400,
    example: 'invalid_webhook_url',
    request: () => call('POST', `/v1/campaigns/${w.q4}/webhook/activate`, { webhook_url: 'https://10.0.4.17/hooks' }),
  },
  {
    operationId: 'deactivateWebhook',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', `/v1/campaigns/${w.q4}/webhook/deactivate`, { webhook_id: 'wh_123' }),
  },
  {
    operationId: 'setWebhookSecret',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', `/v1/campaigns/${w.noSequence}/webhooks/${w.webhook}/secret`, { secret: 'short' }),
  },

  // Leads
  { operationId: 'listLeads', status: 400, example: 'validation_error', request: limit('/v1/leads', 101) },
  {
    operationId: 'createLead',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', '/v1/leads', noContact),
  },
  {
    operationId: 'createLeadLegacy',
    status: 400,
    example: 'validation_error',
    request: () => call('POST', '/v1/leads/create', noContact),
  },
  {
    operationId: 'createLead',
    status: 400,
    example: 'campaign_not_in_organization',
    request: () => call('POST', '/v1/leads', unknownCampaign),
  },
  {
    operationId: 'createLeadLegacy',
    status: 400,
    example: 'campaign_not_in_organization',
    request: () => call('POST', '/v1/leads/create', unknownCampaign),
  },
  {
    operationId: 'createLead',
    status: 207,
    example: 'imported',
    request: () =>
      call('POST', '/v1/leads', {
        leads: [
          { email: 'imported@example.com', campaign_id: w.noSequence },
          { email: 'maya.patel@acmerobotics.com' },
          { email: 'refused@example.com', campaign_id: UNKNOWN_CAMPAIGN },
        ],
      }),
  },
  {
    operationId: 'createLead',
    status: 400,
    example: 'invalid_item',
    request: () =>
      call('POST', '/v1/leads', {
        leads: [
          { email: 'b1@example.com' },
          { email: 'b2@example.com' },
          { email: 'b3@example.com' },
          { first_name: 'X' },
        ],
      }),
  },
  {
    operationId: 'getLead',
    status: 404,
    example: 'lead_not_found',
    request: () => call('GET', `/v1/leads/${UNKNOWN_LEAD}`),
  },
  {
    operationId: 'updateLead',
    status: 404,
    example: 'lead_not_found',
    request: () => call('PATCH', `/v1/leads/${UNKNOWN_LEAD}`, { title: 'CTO' }),
  },
  {
    operationId: 'updateLead',
    status: 400,
    example: 'duplicate_email',
    request: () => call('PATCH', `/v1/leads/${w.jonas}`, { email: 'maya.patel@acmerobotics.com' }),
  },
  {
    operationId: 'deleteLead',
    status: 404,
    example: 'lead_not_in_campaign',
    request: () => call('DELETE', `/v1/leads/${w.maya}?campaign_id=${w.emea}`),
  },
  {
    operationId: 'deleteLead',
    status: 404,
    example: 'lead_not_found',
    request: () => call('DELETE', `/v1/leads/${UNKNOWN_LEAD}`),
  },
  {
    operationId: 'deleteLead',
    status: 400,
    example: 'validation_error',
    request: () => call('DELETE', `/v1/leads/${w.maya}?campaign_id=abc`),
  },

  // Sandbox
  {
    operationId: 'listSandboxDeliveries',
    status: 400,
    example: 'validation_error',
    request: () => call('GET', `/v1/sandbox/campaigns/${w.q4}/deliveries?limit=501`),
  },
  {
    operationId: 'listSandboxMessages',
    status: 400,
    example: 'validation_error',
    request: () => call('GET', `/v1/sandbox/campaigns/${w.q4}/messages?limit=501`),
  },

  // CRM
  { operationId: 'listPipelines', status: 400, example: 'validation_error', request: limit('/v1/crm/pipelines', 501) },
  {
    operationId: 'getPipeline',
    status: 404,
    example: 'pipeline_not_found',
    request: () => call('GET', `/v1/crm/pipelines/${UNKNOWN_PIPELINE}`),
  },
  {
    operationId: 'getPipeline',
    status: 404,
    example: 'not_found',
    request: () => call('GET', '/v1/crm/pipelines/xyz'),
  },
  {
    operationId: 'updatePipeline',
    status: 404,
    example: 'pipeline_not_found',
    request: () => call('PATCH', `/v1/crm/pipelines/${UNKNOWN_PIPELINE}`, { name: 'Renamed' }),
  },
  {
    operationId: 'updatePipeline',
    status: 404,
    example: 'not_found',
    request: () => call('PATCH', '/v1/crm/pipelines/xyz', { name: 'Renamed' }),
  },
  {
    operationId: 'updatePipeline',
    status: 400,
    example: 'validation_error',
    request: () => call('PATCH', `/v1/crm/pipelines/${w.pipeline}`, { name: '' }),
  },
  { operationId: 'listDeals', status: 400, example: 'validation_error', request: limit('/v1/crm/deals', 101) },
  {
    operationId: 'createDeal',
    status: 400,
    example: 'invalid_stage',
    request: () => call('POST', '/v1/crm/deals', { name: 'Acme Robotics pilot', stage_id: UNKNOWN_STAGE }),
  },
  {
    operationId: 'createDeal',
    status: 400,
    example: 'lead_not_in_organization',
    request: () => call('POST', '/v1/crm/deals', { name: 'Acme Robotics pilot', lead_id: UNKNOWN_LEAD }),
  },
  {
    operationId: 'getDeal',
    status: 404,
    example: 'deal_not_found',
    request: () => call('GET', `/v1/crm/deals/${UNKNOWN_DEAL}`),
  },
  {
    operationId: 'getDeal',
    status: 404,
    example: 'not_found',
    request: () => call('GET', '/v1/crm/deals/xyz'),
  },
  {
    operationId: 'updateDeal',
    status: 404,
    example: 'deal_not_found',
    request: () => call('PATCH', `/v1/crm/deals/${UNKNOWN_DEAL}`, { name: 'Renamed' }),
  },
  {
    operationId: 'updateDeal',
    status: 404,
    example: 'not_found',
    request: () => call('PATCH', '/v1/crm/deals/xyz', { name: 'Renamed' }),
  },
  {
    operationId: 'updateDeal',
    status: 400,
    example: 'invalid_stage',
    request: () => call('PATCH', `/v1/crm/deals/${w.deal}`, { stage_id: UNKNOWN_STAGE }),
  },
];

describe("the operations' examples are the server's own answers", () => {
  beforeAll(async () => {
    w = await setUp();
  });

  const named = cases.map((c) => [`${c.operationId} ${c.status} ${c.example}`, c] as const);
  it.each(named)('%s', async (_, { operationId, status, example, request }) => {
    const expected = exampleOf(operationId, status, example);
    const answer = await request();
    expect(answer.status).toBe(status);
    const { server, example: documented } = comparable(answer.body as Node, expected);
    expect(Object.keys(documented).length, 'the example has texts to compare').toBeGreaterThan(0);
    expect(server).toEqual(documented);
  });
});
