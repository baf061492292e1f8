/**
 * The client in a web-standard runtime (bundled for edge-runtime by `client-edge.test.ts`):
 * named calls, a retried 429, paging and a typed error, against a `fetch` that answers like
 * the service. Returns what happened as JSON for the Node side to check.
 */
import { createClient, getCampaign, listLeads, OcsNotFoundError, paginate } from '../../src/index.ts';

const campaignId = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const leads = Array.from({ length: 5 }, (_, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}` }));

export async function runEdgeClient(): Promise<string> {
  const seen: string[] = [];
  let rateLimited = 0;
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', 'X-Request-ID': `req_edge_${seen.length}`, ...headers },
    });
  const fetchLikeTheService = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search} ${request.headers.get('authorization') ?? ''}`);
    if (url.pathname === `/v1/campaigns/${campaignId}`) {
      if (rateLimited++ === 0) {
        return json(
          429,
          { success: false, error: 'RATE_LIMITED', message: 'Retry after 0 seconds.', request_id: 'req_429' },
          { 'Retry-After': '0' },
        );
      }
      return json(200, { success: true, campaign: { campaign_id: campaignId, name: 'Edge' } });
    }
    if (url.pathname === '/v1/leads') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const page = leads.slice(offset, offset + limit);
      return json(200, {
        success: true,
        message: 'Leads retrieved',
        count: page.length,
        total: leads.length,
        limit,
        offset,
        has_more: offset + page.length < leads.length,
        leads: page,
      });
    }
    return json(404, {
      success: false,
      error: 'CAMPAIGN_NOT_FOUND',
      message: 'No such campaign.',
      request_id: 'req_404',
    });
  };
  const client = createClient({
    apiKey: 'ocs_edge0000000000000000000000000000000000',
    baseUrl: 'https://api.example.com',
    fetch: fetchLikeTheService as typeof fetch,
  });
  const campaign = await getCampaign(client, { campaign_id: campaignId });
  const paged: string[] = [];
  for await (const lead of paginate(client, listLeads, {}, { pageSize: 2 })) paged.push(lead.id);
  let notFound: { name: string; code: string; requestId: string | undefined; typed: boolean } | null = null;
  try {
    await getCampaign(client, { campaign_id: '7f1e2d3c-4b5a-4697-8e1d-2c3b4a5f6e7d' });
  } catch (error) {
    const e = error as OcsNotFoundError;
    notFound = { name: e.name, code: e.code, requestId: e.requestId, typed: error instanceof OcsNotFoundError };
  }
  return JSON.stringify({ name: campaign.campaign?.name, paged, notFound, seen });
}
