/**
 * Behaviour every endpoint shares (sections 4, 7, 8, 9): request IDs, the error body, body
 * size, unknown paths, rate limits, deprecation headers and the served documents.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import type { LogEntry } from '../../src/http/logger.ts';
import { handlers } from '../../src/routes/index.ts';
import { checkAgainstDocument, createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('cross-cutting behaviour', (store, backend) => {
  it('uses an acceptable caller X-Request-ID and replaces others, in headers, bodies and logs', async () => {
    const logs: LogEntry[] = [];
    const api = await createTestApi(store(), { logger: { log: (entry) => logs.push(entry) } });
    const echoed = await api.call<{ request_id: string }>('GET', `/v1/campaigns/${crypto.randomUUID()}`, {
      headers: { 'X-Request-ID': 'sync-job:42.a_b-c' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('sync-job:42.a_b-c');
    expect(echoed.body.request_id).toBe('sync-job:42.a_b-c');
    expect(logs.at(-1)).toMatchObject({ request_id: 'sync-job:42.a_b-c', status: 404, operation_id: 'getCampaign' });
    for (const bad of ['has space', 'x'.repeat(129), 'slash/not-allowed', '']) {
      const answer = await api.call('GET', '/v1/campaigns', { headers: { 'X-Request-ID': bad } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).not.toBe(bad);
    }
  });

  it('answers unknown paths and methods with 404 NOT_FOUND in the error body', async () => {
    const api = await createTestApi(store());
    for (const [method, path] of [
      ['GET', '/v1/nothing-here'],
      ['DELETE', '/v1/campaigns'],
      ['GET', '/campaigns'],
      ['GET', '/v2/campaigns'],
    ] as const) {
      const answer = await api.call<{ error: string }>(method, path);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error).toBe('NOT_FOUND');
    }
  });

  it('refuses bodies over 1 MB with 413 without reading past the limit', async () => {
    const api = await createTestApi(store());
    const declared = await api.call<{ error: string }>('POST', '/v1/campaigns', {
      rawBody: JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024) }),
    });
    expect([declared.status, declared.body.error]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // A streamed body with no Content-Length: count what the server pulls.
    let pulled = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await api.app.fetch(
      new Request('http://localhost/v1/campaigns', {
        method: 'POST',
        headers: { Authorization: `Bearer ${api.key}`, 'Content-Type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    const body = await response.json();
    checkAgainstDocument('POST', '/v1/campaigns', response, body);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThanOrEqual(1024 * 1024 + 3 * chunk.byteLength);
  });

  it('reads a body of declared length whole, and refuses one longer than it declares past 1 MB', async () => {
    const api = await createTestApi(store());
    const send = (body: string, length: number) =>
      api.app.fetch(
        new Request('http://localhost/v1/campaigns', {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${api.key}`,
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': String(length),
          },
          body,
        }),
      );
    // A byte order mark and multi-byte text, as a Node client sends them (the length in bytes).
    const body = `\uFEFF${JSON.stringify({ name: 'Ünïcode ✓', description: 'declared' })}`;
    const created = await send(body, new TextEncoder().encode(body).byteLength);
    const answer = (await created.json()) as { campaign: { name: string } };
    expect(created.status).toBe(201);
    expect(answer.campaign.name).toBe('Ünïcode ✓');
    // Only an in-process Request can understate its length; it is refused once read.
    const long = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024) });
    const refused = await send(long, 100);
    const refusal = (await refused.json()) as { error: string };
    checkAgainstDocument('POST', '/v1/campaigns', refused, refusal);
    expect([refused.status, refusal.error]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers malformed JSON with VALIDATION_ERROR', async () => {
    const api = await createTestApi(store());
    const answer = await api.call<{ error: string; details: { errors: Array<{ type: string }> } }>(
      'POST',
      '/v1/campaigns',
      {
        rawBody: '{"name": ',
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.details.errors[0]?.type).toBe('invalid_json');
  });

  it('discloses nothing about an internal failure', async () => {
    const logs: LogEntry[] = [];
    const api = await createTestApi(store(), {
      logger: { log: (entry) => logs.push(entry) },
      handlers: {
        ...handlers,
        listCampaigns: async () => {
          throw new Error('password=hunter2 at db.internal:5432');
        },
      },
    });
    const answer = await api.call<{ error: string; message: string; request_id: string }>('GET', '/v1/campaigns');
    expect([answer.status, answer.body.error]).toEqual([500, 'INTERNAL_ERROR']);
    expect(JSON.stringify(answer.body)).not.toMatch(/hunter2|db\.internal/);
    expect(answer.body.message).toContain(answer.body.request_id);
    expect(logs.some((entry) => String(entry.error).includes('hunter2'))).toBe(true);
  });

  it('answers 500 ORG_HAS_NO_MEMBERS when nobody could own a campaign', async () => {
    const api = await createTestApi(store());
    const bare = await import('../../src/seed/organizations.ts');
    const organization = await bare.createOrganization(store(), { name: 'Empty' });
    const { key } = await bare.createApiKey(store(), { organizationId: organization.id });
    const answer = await api.call<{ error: string }>('POST', '/v1/campaigns', { key, body: { name: 'x' } });
    expect([answer.status, answer.body.error]).toEqual([500, 'ORG_HAS_NO_MEMBERS']);
  });

  it('counts rate limits per endpoint and in total, and answers 429 with Retry-After', async () => {
    const api = await createTestApi(store(), { rateLimits: { perEndpoint: 3, total: 5 } });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await api.call('GET', '/v1/campaigns');
      expect(answer.status).toBe(200);
      remaining.push(answer.headers.get('ratelimit-remaining') ?? '');
      expect(answer.headers.get('ratelimit-limit')).toBe('3');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await api.call<{ error: string }>('GET', '/v1/campaigns');
    expect([limited.status, limited.body.error]).toEqual([429, 'RATE_LIMITED']);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Number(limited.headers.get('ratelimit-reset'))).toBe(retryAfter);
    // Another endpoint has its own budget, until the total runs out (5 in all).
    expect((await api.call('GET', `/v1/campaigns/${crypto.randomUUID()}`)).status).toBe(404);
    const total = await api.call<{ error: string }>('GET', '/v1/auth/verify');
    expect(total.status).toBe(429);
  });

  // A GET runs its handler while the count is in flight (decision 0007): a spent budget
  // must still answer 429, with its headers, whatever the handler answered or threw; other
  // methods still wait for the count, so nothing is written past the limit.
  it('answers 429 on a spent budget whatever the rest of the pipeline answered', async () => {
    let reads = 0;
    let writes = 0;
    const { getCampaign, createCampaign } = handlers;
    if (!getCampaign || !createCampaign) throw new Error('handlers missing');
    const api = await createTestApi(store(), {
      rateLimits: { perEndpoint: 1, total: 100 },
      handlers: {
        ...handlers,
        getCampaign: async (request, services) => {
          reads += 1;
          return getCampaign(request, services);
        },
        listCampaigns: async () => {
          reads += 1;
          throw new Error('the handler failed');
        },
        createCampaign: async (request, services) => {
          writes += 1;
          return createCampaign(request, services);
        },
      },
    });
    const missing = `/v1/campaigns/${crypto.randomUUID()}`;
    expect((await api.call('GET', missing)).status).toBe(404);
    const limited = await api.call<{ error: string }>('GET', missing);
    expect([limited.status, limited.body.error]).toEqual([429, 'RATE_LIMITED']);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect((await api.call('GET', '/v1/campaigns')).status).toBe(500);
    const failedAndLimited = await api.call('GET', '/v1/campaigns');
    expect(failedAndLimited.status).toBe(429);
    expect(reads).toBe(4);
    await api.call('POST', '/v1/campaigns', { body: { name: 'one' } });
    const write = await api.call('POST', '/v1/campaigns', { body: { name: 'two' } });
    expect(write.status).toBe(429);
    expect(writes).toBe(1);
  });

  // Several processes share a PostgreSQL server, so their budget lives there; memory and
  // PGlite belong to one process, so counting stays in that process's memory.
  it(`keeps rate limits ${backend === 'postgres' ? 'shared by servers on one database' : 'in the process'}`, async () => {
    const first = await createTestApi(store(), { rateLimits: { perEndpoint: 2, total: 100 } });
    const { createApp } = await import('../../src/app.ts');
    const second = createApp({ store: store(), rateLimits: { perEndpoint: 2, total: 100 } });
    expect((await first.call('GET', '/v1/campaigns')).status).toBe(200);
    const viaSecond = await second.fetch(
      new Request('http://localhost/v1/campaigns', { headers: { Authorization: `Bearer ${first.key}` } }),
    );
    expect(viaSecond.status).toBe(200);
    expect((await first.call('GET', '/v1/campaigns')).status).toBe(backend === 'postgres' ? 429 : 200);
  });

  it('marks deprecated operations with Deprecation and a Link to the successor', async () => {
    const api = await createTestApi(store(), {
      handlers: {
        ...handlers,
        listSequenceTemplatesLegacy: async () => ({ status: 200, body: { success: true, templates: [] } }),
      },
    });
    const answer = await api.call('GET', '/v1/campaigns/sequence-templates');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('deprecation')).toBe('true');
    expect(answer.headers.get('link')).toBe('</v1/sequence-templates>; rel="successor-version"');
    const unauthorized = await api.call('GET', '/v1/campaigns/sequence-templates', { key: null });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('deprecation')).toBe('true');
  });

  it('serves the OpenAPI document as JSON and YAML at the base address', async () => {
    const api = await createTestApi(store());
    const require = createRequire(import.meta.url);
    const json = await api.app.fetch(new Request('http://localhost/openapi.json'));
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(JSON.parse(readFileSync(require.resolve('@ocs/sdk/openapi.json'), 'utf8')));
    const yaml = await api.app.fetch(new Request('http://localhost/openapi.yaml'));
    expect(yaml.headers.get('content-type')).toContain('yaml');
    expect(await yaml.text()).toBe(readFileSync(require.resolve('@ocs/sdk/openapi.yaml'), 'utf8'));
  });
});
