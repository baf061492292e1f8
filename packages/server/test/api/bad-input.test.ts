/**
 * Bad input answers 400 (or 415) in the API's error body, never 500, and the same on every
 * store (issue 10, item 3; docs/decisions/0005-bad-input.md): text PostgreSQL cannot store
 * (U+0000, unpaired surrogates) anywhere in a request, integers past what the columns hold,
 * headers built only from validated values, and bodies that are not declared JSON.
 */
import { describe, expect, it } from 'vitest';
import { checkAgainstDocument, createTestApi, type TestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

interface Failure {
  success: false;
  error: string;
  message: string;
  details?: { errors: Array<{ field: string; message: string; type: string }> };
  request_id: string;
}

const unstorable = { message: 'must not contain U+0000 or an unpaired surrogate', type: 'unsupported_character' };

describeBackends('bad input', (store) => {
  let api: TestApi;
  const setup = async () => {
    api = await createTestApi(store());
  };
  const createCampaign = async () => {
    const answer = await api.call<{ campaign: { id: string } }>('POST', '/v1/campaigns', {
      body: { name: 'Bad input' },
    });
    expect(answer.status).toBe(201);
    return answer.body.campaign.id;
  };
  const createLead = async (body: Record<string, unknown> = {}) => {
    const answer = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
      body: { email: `${crypto.randomUUID()}@example.com`, ...body },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.lead.id;
  };
  /** The answer without its request ID, so that stores can be compared exactly. */
  const failure = (body: Failure) => ({ ...body, request_id: undefined });

  it('refuses U+0000 in any string of a body, nested ones and keys included, before the store sees it', async () => {
    await setup();
    const campaignId = await createCampaign();
    const leadId = await createLead();
    const keyMessage = 'must not have a key that contains U+0000 or an unpaired surrogate';
    const cases: Array<[string, string, unknown, string, string?]> = [
      ['POST', '/v1/campaigns', { name: 'a\u0000b' }, 'body.name'],
      ['PATCH', `/v1/campaigns/${campaignId}`, { description: 'x\u0000' }, 'body.description'],
      ['POST', '/v1/leads', { email: 'nul@example.com', first_name: '\u0000' }, 'body.first_name'],
      [
        'POST',
        '/v1/leads',
        { email: 'nul@example.com', custom_fields: { plan: { tier: ['ok', 'a\u0000'] } } },
        'body.custom_fields.plan.tier[1]',
      ],
      [
        'POST',
        '/v1/leads',
        { email: 'nul@example.com', custom_fields: { 'a\u0000': 1 } },
        'body.custom_fields',
        keyMessage,
      ],
      ['PATCH', `/v1/leads/${leadId}`, { company: 'Acme\u0000' }, 'body.company'],
      ['POST', '/v1/leads/create', { email: 'nul@example.com', title: 'CEO\u0000' }, 'body.title'],
      ['POST', '/v1/crm/deals', { name: 'Deal\u0000' }, 'body.name'],
      [
        'POST',
        `/v1/campaigns/${campaignId}/ai-fields`,
        { field_name: 'f', ai_instructions: 'i\u0000' },
        'body.ai_instructions',
      ],
    ];
    for (const [method, path, body, field, message = unstorable.message] of cases) {
      const answer = await api.call<Failure>(method, path, { body });
      const where = `${method} ${path} ${JSON.stringify(body)}`;
      expect(answer.status, where).toBe(400);
      expect(failure(answer.body), where).toEqual({
        success: false,
        error: 'VALIDATION_ERROR',
        message: `Request validation failed: ${field} ${message}.`,
        details: { errors: [{ field, message, type: unstorable.type }] },
        request_id: undefined,
      });
    }
    const leads = await api.call<{ total: number }>('GET', '/v1/leads');
    expect(leads.body.total).toBe(1);
  });

  it('refuses unpaired surrogates in a body and U+0000 in query parameters', async () => {
    await setup();
    const campaignId = await createCampaign();
    const lone = await api.call<Failure>('POST', '/v1/campaigns', { rawBody: '{"name":"a\\ud800b"}' });
    expect([lone.status, lone.body.details?.errors]).toEqual([400, [{ field: 'body.name', ...unstorable }]]);
    const reversed = await api.call<Failure>('POST', '/v1/campaigns', { rawBody: '{"name":"\\udc00\\ud800"}' });
    expect(reversed.status).toBe(400);
    // A well-formed pair (an emoji) is text like any other.
    const pair = await api.call('POST', '/v1/campaigns', { rawBody: '{"name":"\\ud83d\\ude80 launch"}' });
    expect(pair.status).toBe(201);
    const query = await api.call<Failure>('GET', '/v1/leads?email=a%00b%40example.com');
    expect([query.status, query.body.details?.errors]).toEqual([400, [{ field: 'query.email', ...unstorable }]]);
    const filter = await api.call<Failure>('GET', `/v1/campaigns/${campaignId}/analysis?date_filter=7d%00`);
    expect([filter.status, filter.body.error]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('refuses a body nested deeper than 64 levels, so that whatever is stored can be erased', async () => {
    await setup();
    const leadId = await createLead();
    // Written as text: JSON.stringify itself overflows the stack on the deepest of these.
    const nestedText = (depth: number) => {
      let text = '1';
      for (let i = 0; i < depth; i++) text = i % 2 ? `[${text}]` : `{"a":${text}}`;
      return text;
    };
    const nested = (depth: number): unknown => JSON.parse(nestedText(depth));
    const cases: Array<[string, string]> = [
      ['/v1/leads', `{"email":"deep@example.com","custom_fields":${nestedText(5000)}}`],
      ['/v1/leads', `{"email":"deep@example.com","custom_fields":{"a":${nestedText(100_000)}}}`],
      ['/v1/crm/deals', `{"name":"Deep","lead_id":"${leadId}","metadata":${nestedText(2000)}}`],
    ];
    for (const [path, rawBody] of cases) {
      const answer = await api.call<Failure>('POST', path, { rawBody });
      expect(answer.status, path).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_ERROR');
      expect(answer.body.details?.errors.map((issue) => issue.type)).toEqual(['json_too_deep']);
    }
    // Up to the limit is accepted, and the lead stays erasable.
    const within = await api.call<{ lead: { id: string } }>('POST', '/v1/leads', {
      body: { email: 'within@example.com', custom_fields: { a: nested(60) } },
    });
    expect(within.status).toBe(201);
    const deal = await api.call('POST', '/v1/crm/deals', {
      body: { name: 'Within', lead_id: within.body.lead.id, metadata: { a: nested(60) } },
    });
    expect(deal.status, JSON.stringify(deal.body)).toBe(201);
    expect((await api.call('DELETE', `/v1/leads/${within.body.lead.id}`)).status).toBe(200);
  });

  it('refuses integers past what the columns hold, and keeps the largest that fit', async () => {
    await setup();
    const leadId = await createLead();
    for (const [method, path, extra] of [
      ['POST', '/v1/leads', { email: 'big@example.com' }],
      ['POST', '/v1/leads/create', { email: 'big@example.com' }],
      ['PATCH', `/v1/leads/${leadId}`, {}],
    ] as const) {
      const employees = await api.call<Failure>(method, path, { body: { ...extra, employee_count: 2147483648 } });
      expect([employees.status, employees.body.details?.errors], `${method} ${path}`).toEqual([
        400,
        [{ field: 'body.employee_count', message: 'must be <= 2147483647', type: 'maximum' }],
      ]);
      // JSON.stringify writes 1e308 as 1e+308, a number the body parses back to 1e308.
      const revenue = await api.call<Failure>(method, path, { body: { ...extra, annual_revenue: 1e308 } });
      expect([revenue.status, revenue.body.details?.errors], `${method} ${path}`).toEqual([
        400,
        [{ field: 'body.annual_revenue', message: 'must be <= 9007199254740991', type: 'maximum' }],
      ]);
    }
    const largest = { employee_count: 2147483647, annual_revenue: 9007199254740991 };
    const updated = await api.call<{ lead: typeof largest }>('PATCH', `/v1/leads/${leadId}`, { body: largest });
    expect(updated.status).toBe(200);
    expect(updated.body.lead).toMatchObject(largest);
    const read = await api.call<{ lead: typeof largest }>('GET', `/v1/leads/${leadId}`);
    expect(read.body.lead).toMatchObject(largest);
  });

  it('refuses step IDs past a PostgreSQL integer in a sequence and a preview', async () => {
    await setup();
    const campaignId = await createCampaign();
    const sequence = { variation_a: [{ id: 2147483648, type: 'view_profile', delay: 0 }] };
    const replaced = await api.call<Failure>('PUT', `/v1/campaigns/${campaignId}/sequence`, { body: { sequence } });
    expect([replaced.status, replaced.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    expect(replaced.body.details?.errors.map((e) => e.type)).toContain('maximum');
    const step = await api.call<Failure>('PATCH', `/v1/campaigns/${campaignId}/sequence/steps/2147483648`, {
      body: { updates: { delay: 1 } },
    });
    expect([step.status, step.body.error]).toEqual([404, 'NOT_FOUND']);
  });

  it('builds the deprecated Link header only from validated values', async () => {
    await setup();
    const campaignId = await createCampaign();
    const path = `/v1/campaigns/${campaignId}/webhook/deactivate`;
    const placeholder = `</v1/campaigns/${campaignId}/webhooks/{webhook_id}>; rel="successor-version"`;
    for (const rawBody of ['{"webhook_id":"\\ud800"}', JSON.stringify({ webhook_id: 'x'.repeat(100_000) })]) {
      const answer = await api.call<Failure>('POST', path, { rawBody });
      expect([answer.status, answer.body.error]).toEqual([400, 'VALIDATION_ERROR']);
      expect(answer.headers.get('deprecation')).toBe('true');
      expect(answer.headers.get('link')).toBe(placeholder);
    }
    const unknown = crypto.randomUUID();
    const missing = await api.call<Failure>('POST', path, { body: { webhook_id: unknown } });
    expect([missing.status, missing.body.error]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    expect(missing.headers.get('link')).toBe(
      `</v1/campaigns/${campaignId}/webhooks/${unknown}>; rel="successor-version"`,
    );
  });

  it('reads a body only when it is declared JSON, and answers 415 otherwise', async () => {
    await setup();
    const json = JSON.stringify({ name: 'Typed' });
    const send = async (
      contentType: string | undefined,
      body: string | Uint8Array<ArrayBuffer> = json,
      path = '/v1/campaigns',
    ) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${api.key}` };
      if (contentType !== undefined) headers['Content-Type'] = contentType;
      // A Uint8Array body makes no Content-Type of its own (a string would be text/plain).
      const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
      const response = await api.app.fetch(
        new Request(`http://localhost${path}`, { method: 'POST', headers, body: bytes }),
      );
      const parsed = (await response.json()) as Failure;
      checkAgainstDocument('POST', path, response, parsed);
      return { status: response.status, body: parsed };
    };
    for (const contentType of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=iso-8859-1',
      'application/jsonp',
      'json',
      undefined,
    ]) {
      const answer = await send(contentType);
      expect([answer.status, answer.body.error], String(contentType)).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(answer.body.message, String(contentType)).toContain('application/json');
    }
    for (const contentType of [
      'application/json',
      'Application/JSON; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/merge-patch+json',
      'application/vnd.ocs+json; charset=utf-8',
    ]) {
      expect((await send(contentType)).status, contentType).toBe(201);
    }
    // No body at all needs no Content-Type, whatever the operation: a required body is then
    // missing (400), an optional one absent.
    const empty = await send(undefined, new Uint8Array());
    expect([empty.status, empty.body.error]).toEqual([400, 'VALIDATION_ERROR']);
    const campaignId = (await send('application/json')).body as unknown as { campaign: { id: string } };
    const secret = `/v1/campaigns/${campaignId.campaign.id}/webhooks/${crypto.randomUUID()}/secret`;
    const optional = await send(undefined, new Uint8Array(), secret);
    expect([optional.status, optional.body.error]).toEqual([404, 'WEBHOOK_NOT_FOUND']);
    const sized = await send('text/plain', 'x'.repeat(2 * 1024 * 1024));
    expect([sized.status, sized.body.error]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});

// Validation runs before any store is read, so once, on memory.
describe('a request that fails in more places than an answer lists (issue-limits.ts)', () => {
  const createCampaignWith = async (steps: number) => {
    const api = await createTestApi(createMemoryStore());
    return api.call<Failure>('POST', '/v1/campaigns', {
      rawBody: `{"name":"Many steps","sequence":{"variation_a":[${Array(steps).fill('{}').join(',')}]}}`,
    });
  };

  it('lists every issue up to 1,000 (two per empty step: id and type)', async () => {
    const answer = await createCampaignWith(500);
    expect(answer.status).toBe(400);
    expect(answer.body.details?.errors).toHaveLength(1000);
    expect(answer.body.details).not.toHaveProperty('errors_truncated');
    expect(answer.body.details?.errors.at(-1)?.field).toMatch(/^body\.sequence\.variation_a\[499\]\./);
    expect(answer.body.message).toContain('; and 990 more (details.errors lists each).');
  });

  it('lists the first 1,000 of more and says so', async () => {
    const answer = await createCampaignWith(501);
    expect(answer.status).toBe(400);
    expect(answer.body.details?.errors).toHaveLength(1000);
    expect(answer.body.details).toHaveProperty('errors_truncated', true);
    expect(answer.body.details?.errors.at(-1)?.field).toMatch(/^body\.sequence\.variation_a\[499\]\./);
    expect(answer.body.message).toMatch(
      /; and more \(details\.errors lists the first 1,000: fix them and send again to see the rest\)\.$/,
    );
  });

  it("answers 300,000 wrong steps (900 KB) in an answer of a few kilobytes per issue listed, each step's errors appended, never copied", async () => {
    // Listing each of the 600,000 issues answered 55 MB after 4 s of the server's thread and
    // an RSS peak of 850 MB; twelve such requests at once took 3 GB and stalled every other
    // client. And each step's schema is a function of Ajv's code, whose errors were once
    // copied into the list at each failing step (concat): minutes for a body of 1 MB.
    const answer = await createCampaignWith(300_000);
    expect(answer.status).toBe(400);
    expect(answer.body.details?.errors).toHaveLength(1000);
    expect(answer.body.details).toHaveProperty('errors_truncated', true);
    expect(answer.body.details?.errors[0]?.field).toMatch(/^body\.sequence\.variation_a\[0\]\./);
    expect(JSON.stringify(answer.body).length).toBeLessThan(200_000);
  }, 60_000);

  it('bounds each field spelled through keys the caller chose, and stops looking past 1,000', async () => {
    // One custom field key of 300,000 characters above 30,000 values holding U+0000: each
    // issue's field spelled the key out again, 9 GB of field names, and the server ran out
    // of memory and ended.
    const api = await createTestApi(createMemoryStore());
    const key = 'k'.repeat(300_000);
    const values = Array.from({ length: 30_000 }, (_, index) => `"v${index}":"\\u0000"`).join(',');
    const answer = await api.call<Failure>('POST', '/v1/leads', {
      rawBody: `{"email":"long-key@example.com","custom_fields":{"${key}":{${values}}}}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toHaveProperty('errors_truncated', true);
    const issues = answer.body.details?.errors ?? [];
    expect(issues).toHaveLength(1000);
    const spelled = `body.custom_fields.${key}.v0`;
    expect(issues[0]).toEqual({
      ...unstorable,
      field: `${spelled.slice(0, 1000)}… (${spelled.length.toLocaleString('en-US')} characters)`,
    });
    expect(Math.max(...issues.map((issue) => issue.field.length))).toBeLessThanOrEqual(1100);
    expect(answer.body.message.length).toBeLessThan(20_000);
  }, 60_000);

  it('bounds each field by the bytes it takes in the answer, a control character being six', async () => {
    // A key of 1,000 U+0001 above 1,001 values holding U+0000: 15 KB that answered 6 MB, each
    // field 1,000 characters written `\u0001` in JSON.
    const api = await createTestApi(createMemoryStore());
    const key = '\\u0001'.repeat(1000);
    const values = Array(1001).fill('"\\u0000"').join(',');
    const answer = await api.call<Failure>('POST', '/v1/leads', {
      rawBody: `{"email":"control-key@example.com","custom_fields":{"${key}":[${values}]}}`,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.details?.errors).toHaveLength(1000);
    const cut = 'body.custom_fields.'.length + (1000 - 'body.custom_fields.'.length) / 6;
    expect(answer.body.details?.errors[0]?.field).toBe(
      `body.custom_fields.${'\u0001'.repeat(Math.floor(cut) - 'body.custom_fields.'.length)}… (1,022 characters)`,
    );
    expect(Buffer.byteLength(JSON.stringify(answer.body))).toBeLessThan(1_200_000);
  }, 60_000);
});
