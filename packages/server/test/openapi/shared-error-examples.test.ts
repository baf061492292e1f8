/**
 * The document's shared error examples (`components/responses`: 401, 403, 415, 429, the
 * lead's 404) say what the server answers, word for word: users read them in the API
 * reference and get them from Prism, so an example's `message` must be one the server sends
 * in that case. Each case is made on the server here and its message compared with the
 * example's, with what varies (IDs, times, counts) made generic on both sides.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/openapi/document.ts';
import { createApiKey } from '../../src/seed/organizations.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import { createTestApi } from '../support/api.ts';

type Example = { value: { error: string; message: string } };
type Responses = Record<string, { content: { 'application/json': { examples: Record<string, Example> } } }>;
const responses = (openApiDocument as unknown as { components: { responses: Responses } }).components.responses;

/** The example `name` of the shared response `response`, and of its deprecated twin if there is one. */
function examples(response: string, name: string): Example['value'][] {
  const found = [response, `Deprecated${response}`]
    .map((key) => responses[key]?.content['application/json'].examples[name]?.value)
    .filter((value) => value !== undefined);
  expect(found.length, `${response} has an example ${name}`).toBeGreaterThan(0);
  return found;
}

/** The message with what varies from one answer to the next (IDs, times, seconds) made generic. */
const generic = (message: string) =>
  message
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+\+00:00/g, '<time>')
    .replace(/of \d+ requests/, 'of <n> requests')
    .replace(/after \d+ seconds/, 'after <n> seconds');

function expectAsDocumented(answer: { body: unknown }, response: string, name: string) {
  const body = answer.body as { error: string; message: string };
  for (const example of examples(response, name)) {
    expect(body.error).toBe(example.error);
    expect(generic(body.message)).toBe(generic(example.message));
  }
}

describe("the shared error examples are the server's own answers", () => {
  it('401: a missing key, and an expired one (its time in the API format)', async () => {
    const api = await createTestApi(createMemoryStore());
    expectAsDocumented(await api.call('GET', '/v1/campaigns', { key: null }), 'Unauthorized', 'unauthorized');
    const expired = await createApiKey(api.store, {
      organizationId: api.organizationId,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expectAsDocumented(await api.call('GET', '/v1/campaigns', { key: expired.key }), 'Unauthorized', 'expired');
  });

  it('403: a key without the scope the operation needs', async () => {
    const api = await createTestApi(createMemoryStore());
    const readOnly = await createApiKey(api.store, { organizationId: api.organizationId, scopes: ['campaigns:read'] });
    const answer = await api.call('POST', '/v1/campaigns', { key: readOnly.key, body: { name: 'Q4' } });
    expectAsDocumented(answer, 'Forbidden', 'insufficient_scope');
  });

  it('415: a body sent as text/plain', async () => {
    const api = await createTestApi(createMemoryStore());
    const answer = await api.call('POST', '/v1/campaigns', {
      rawBody: '{"name":"Q4"}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expectAsDocumented(answer, 'UnsupportedMediaType', 'unsupported_media_type');
  });

  it('429: the endpoint named as the caller writes it, with /v1', async () => {
    const api = await createTestApi(createMemoryStore(), { rateLimits: { perEndpoint: 1 } });
    // Not a campaign of the organization: its 404 counts against the endpoint's budget too.
    const id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
    expect((await api.call('GET', `/v1/campaigns/${id}`)).status).toBe(404);
    expectAsDocumented(await api.call('GET', `/v1/campaigns/${id}`), 'RateLimited', 'rate_limited');
  });

  it("404: a lead that is not the organization's", async () => {
    const api = await createTestApi(createMemoryStore());
    const answer = await api.call('GET', '/v1/leads/5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40');
    expectAsDocumented(answer, 'LeadNotFound', 'lead_not_found');
  });
});
