/**
 * A small stateful fake of the service for this example's test: 250 leads in memory,
 * `GET /v1/leads` with `offset`, `limit` (1 to 100, default 20) and `campaign_id`, the
 * pagination envelope, request IDs and rate-limit headers, the bearer key checked, and a
 * scenario that answers one 429 to show the SDK's retry.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const apiKey = 'ocs_example_key';
export const campaignId = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';

export interface Fake {
  /** Base URL (without /v1, as integrators often configure it). */
  url: string;
  /** `offset` and `limit` of every GET /v1/leads received. */
  requests: { offset: string | null; limit: string | null; authorization: string | undefined }[];
  /** Answer 429 (Retry-After: 0) once, to the next request at this offset. */
  rateLimitOnceAt(offset: number): void;
  close(): Promise<void>;
}

const leads = Array.from({ length: 250 }, (_, index) => {
  const n = 250 - index; // newest first
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    email: `lead${n}@example.com`,
    first_name: `First${n}`,
    last_name: n % 10 === 0 ? 'O"Brien, Jr.' : `Last${n}`,
    company: `Company ${n}`,
    title: 'VP Sales',
    industry: null,
    website: null,
    linkedin_profile: null,
    annual_revenue: null,
    employee_count: null,
    custom_fields: {},
    enrolments: n % 2 ? [{ campaign_id: campaignId }] : [],
    created_at: new Date(Date.UTC(2026, 9, 1, 0, n)).toISOString().replace('Z', '+00:00'),
    updated_at: new Date(Date.UTC(2026, 9, 1, 0, n)).toISOString().replace('Z', '+00:00'),
  };
});

export async function startFake(): Promise<Fake> {
  let sequence = 0;
  const limitedOffsets = new Set<number>();
  const requests: Fake['requests'] = [];

  const send = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    sequence += 1;
    response.writeHead(status, {
      'Content-Type': 'application/json',
      'X-Request-ID': `req_fake_${sequence}`,
      'RateLimit-Limit': '100',
      'RateLimit-Remaining': String(Math.max(0, 100 - sequence)),
      'RateLimit-Reset': '60',
      ...headers,
    });
    response.end(JSON.stringify(body));
  };
  const fail = (response: ServerResponse, status: number, error: string, message: string, headers = {}) =>
    send(response, status, { success: false, error, message, request_id: `req_fake_${sequence + 1}` }, headers);

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return fail(response, 401, 'UNAUTHORIZED', 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');
    }
    if (request.method !== 'GET' || url.pathname !== '/v1/leads') return fail(response, 404, 'NOT_FOUND', 'Not found.');
    const query = url.searchParams;
    requests.push({
      offset: query.get('offset'),
      limit: query.get('limit'),
      authorization: request.headers.authorization,
    });
    const limit = Number(query.get('limit') ?? 20);
    const offset = Number(query.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100 || !Number.isInteger(offset) || offset < 0) {
      return fail(
        response,
        400,
        'VALIDATION_ERROR',
        'Request validation failed: limit is 1 to 100, offset at least 0.',
      );
    }
    if (limitedOffsets.delete(offset)) {
      return fail(response, 429, 'RATE_LIMITED', 'Rate limit exceeded. Retry after 0 seconds.', { 'Retry-After': '0' });
    }
    const campaign = query.get('campaign_id');
    const matching = campaign ? leads.filter((lead) => lead.enrolments.some((e) => e.campaign_id === campaign)) : leads;
    const items = matching.slice(offset, offset + limit);
    send(response, 200, {
      success: true,
      leads: items,
      count: items.length,
      total: matching.length,
      limit,
      offset,
      page: Math.floor(offset / limit) + 1,
      has_more: offset + items.length < matching.length,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    rateLimitOnceAt: (offset) => void limitedOffsets.add(offset),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
