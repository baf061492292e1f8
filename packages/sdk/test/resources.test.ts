/**
 * Resource groups (`@ocs/sdk/resources`) on a real node:http server: every operation of the
 * document is reached as `ocs.<group>.<method>()` with the very request of its function, a
 * list method is awaited for one page or iterated for every item (maxItems, abort, deadline,
 * the request ID of each page), and `.withResponse()`, `.asResponse()`, per-call options,
 * hooks and errors behave as they do for the functions.
 */
import { describe, expect, it } from 'vitest';
import { groupName } from '../../../scripts/generate/resources.ts';
import document from '../src/generated/openapi.json' with { type: 'json' };
import { operationTable } from '../src/generated/operations.ts';
import { resourceGroups } from '../src/generated/resources.ts';
import {
  createCampaign,
  listLeads,
  OcsAbortError,
  OcsError,
  OcsNotFoundError,
  OcsServiceUnavailableError,
  OcsTimeoutError,
  type Operation,
} from '../src/index.ts';
import { ListPromise, Ocs, OcsPromise } from '../src/resources.ts';
import { clientOf, json, startServer, type Received } from './helpers/http.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type LooseMethod = (params?: object, options?: object) => OcsPromise<unknown>;
const apiKey = 'ocs_test_0123456789';
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const lead_id = '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40';

const documented = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  ['get', 'put', 'post', 'patch', 'delete']
    .filter((method) => item[method])
    .map((method) => ({ path, method: method.toUpperCase(), op: item[method] as Json })),
);

/** The request as the server saw it, without what differs between two calls. */
const request = ({ method, url, body, headers }: Received) => ({
  method,
  url,
  body,
  contentType: headers['content-type'],
  requestId: headers['x-request-id'],
});

/** A server that pages `total` leads like GET /leads, `X-Request-ID` naming each page. */
function pagingServer(total: number, hangAtOffset = Infinity) {
  return startServer(({ url }, response) => {
    const query = new URL(url, 'http://x').searchParams;
    const limit = Number(query.get('limit') ?? 20);
    const offset = Number(query.get('offset') ?? 0);
    if (offset >= hangAtOffset) return; // never answers
    const leads = [];
    for (let index = offset; index < Math.min(offset + limit, total); index++) leads.push({ id: `lead-${index}` });
    json(
      response,
      200,
      { success: true, leads, count: leads.length, total, limit, offset, has_more: offset + leads.length < total },
      { 'X-Request-ID': `req_offset_${offset}` },
    );
  });
}

const offsets = (received: Received[]) =>
  received.map(({ url }) => new URL(url, 'http://x').searchParams.get('offset'));

describe('every operation of the document', () => {
  it('is one method of the group of its first tag', () => {
    const found = documented.map(({ op }) => {
      const operation = (operationTable as Record<string, unknown>)[op.operationId];
      const places = Object.entries(resourceGroups).flatMap(([group, methods]) =>
        Object.entries(methods)
          .filter(([, value]) => value === operation)
          .map(([name]) => [group, name]),
      );
      expect(places, op.operationId).toHaveLength(1);
      expect(places[0]?.[0], op.operationId).toBe(groupName(op.tags[0]));
      return places[0];
    });
    expect(found).toHaveLength(56);
    const methods = Object.values(resourceGroups).flatMap((group) => Object.values(group));
    expect(methods).toHaveLength(56);
  });

  it('sends, through its resource method, the request of its function, on the route of the document', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true }));
    const client = clientOf(server);
    const ocs = new Ocs(client);
    for (const { path, method, op } of documented) {
      const id = op.operationId as string;
      const [group, name] = Object.entries(resourceGroups).flatMap(([group, methods]) =>
        Object.entries(methods)
          .filter(([, value]) => value === (operationTable as Record<string, unknown>)[id])
          .map(([name]) => [group, name] as const),
      )[0] ?? ['', ''];
      const pathParams = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, key]) => [key, `${key}-1`]));
      const params = { ...pathParams, ...(op.requestBody ? { name: 'Fintech CFOs' } : {}) };
      const options = { requestId: `req_${id}`, idempotencyKey: 'key-1', maxRetries: 0 };
      const resourceMethod = (ocs as unknown as Record<string, Record<string, LooseMethod>>)[group]?.[name];
      expect(resourceMethod, `${id}: ocs.${group}.${name}`).toBeTypeOf('function');
      await resourceMethod?.(params, options);
      const operation = (operationTable as Record<string, Operation>)[id] as unknown as (...args: unknown[]) => unknown;
      await operation(client, params, options);
      const [viaResource, viaFunction] = server.received.slice(-2).map(request);
      expect(viaResource, id).toEqual(viaFunction);
      expect(viaResource?.method).toBe(method);
      const route = path.replace(/\{(\w+)\}/g, (_match, key: string) => `${key}-1`);
      expect(viaResource?.url).toBe(`/v1${route}`);
    }
    expect(server.received).toHaveLength(2 * 56);
  });
});

describe('names', () => {
  it('follow the tag and the operationId: list, get, create, update, delete, and the rest by what they do', () => {
    const names = Object.fromEntries(
      Object.entries(resourceGroups).flatMap(([group, methods]) =>
        Object.entries(methods).map(([name, operation]) => [(operation as Operation).operationId, `${group}.${name}`]),
      ),
    );
    expect(names).toMatchObject({
      verifyAuth: 'auth.verify',
      listCampaigns: 'campaigns.list',
      createCampaign: 'campaigns.create',
      getCampaign: 'campaigns.get',
      updateCampaign: 'campaigns.update',
      getCampaignPreflight: 'campaigns.getPreflight',
      listLeads: 'leads.list',
      deleteLead: 'leads.delete',
      createLeadLegacy: 'leads.createLegacy',
      createAiField: 'aiFields.create',
      setWebhookSecret: 'webhooks.setSecret',
      listWebhookExamples: 'webhooks.listExamples',
      getResponderSettings: 'responder.getSettings',
      listDeals: 'crm.listDeals',
      getSandboxClock: 'sandbox.getClock',
      listSandboxMessages: 'sandbox.listMessages',
    });
  });
});

describe('a list method', () => {
  it('awaited: one page, the result of the function form (one request)', async () => {
    const server = await pagingServer(5);
    const client = clientOf(server);
    const page = await new Ocs(client).leads.list({ limit: 2, campaign_id });
    const same = await listLeads(client, { limit: 2, campaign_id });
    expect(page).toEqual(same);
    expect(page.leads.map((lead) => lead.id)).toEqual(['lead-0', 'lead-1']);
    expect(page.requestId).toBe('req_offset_0');
    expect(server.received.map(request).map(({ url }) => url)).toEqual([
      `/v1/leads?limit=2&campaign_id=${campaign_id}`,
      `/v1/leads?limit=2&campaign_id=${campaign_id}`,
    ]);
  });

  it('iterated: every item of every page from offset on, `limit` a page, without the one-page call', async () => {
    const server = await pagingServer(7);
    const ocs = new Ocs(clientOf(server));
    const ids: string[] = [];
    for await (const lead of ocs.leads.list({ limit: 2, offset: 1, campaign_id })) ids.push(lead.id);
    expect(ids).toEqual(['lead-1', 'lead-2', 'lead-3', 'lead-4', 'lead-5', 'lead-6']);
    expect(offsets(server.received)).toEqual(['1', '3', '5']);
    for (const { url } of server.received) {
      expect(new URL(url, 'http://x').searchParams.get('campaign_id')).toBe(campaign_id);
      expect(new URL(url, 'http://x').searchParams.get('limit')).toBe('2');
    }
  });

  it('pages() with the request ID of each page; paginate({ maxItems }) and toArray({ limit }) stop early', async () => {
    const server = await pagingServer(10);
    const ocs = new Ocs(clientOf(server));
    const pages = [];
    for await (const page of ocs.leads.list({ limit: 4 }).pages())
      pages.push([page.offset, page.count, page.requestId]);
    expect(pages).toEqual([
      [0, 4, 'req_offset_0'],
      [4, 4, 'req_offset_4'],
      [8, 2, 'req_offset_8'],
    ]);
    server.received.length = 0;
    const first5: string[] = [];
    for await (const lead of ocs.leads.list({ limit: 4 }).paginate({ maxItems: 5 })) first5.push(lead.id);
    expect(first5).toEqual(['lead-0', 'lead-1', 'lead-2', 'lead-3', 'lead-4']);
    expect(offsets(server.received)).toEqual(['0', '4']);
    server.received.length = 0;
    const three = await ocs.leads.list({ limit: 2 }).toArray({ limit: 3 });
    expect(three.map((lead) => lead.id)).toEqual(['lead-0', 'lead-1', 'lead-2']);
    expect(offsets(server.received)).toEqual(['0', '2']);
  });

  it('iterated with `page`: a clear error, nothing sent', async () => {
    const server = await pagingServer(3);
    const ocs = new Ocs(clientOf(server));
    const iterate = async () => {
      for await (const lead of ocs.leads.list({ page: 2 })) void lead;
    };
    await expect(iterate()).rejects.toThrow(
      new OcsError('`page` picks one page: to iterate from a page on, pass `offset` instead.'),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.received).toHaveLength(0);
  });

  it('the deadline reaches a page fetch, and frees its socket', async () => {
    const server = await pagingServer(10, 4);
    const ocs = new Ocs(clientOf(server));
    const ids: string[] = [];
    const iterate = async () => {
      for await (const lead of ocs.leads.list({ limit: 4 }, { timeoutMs: 300 })) ids.push(lead.id);
    };
    await expect(iterate()).rejects.toBeInstanceOf(OcsTimeoutError);
    expect(ids).toHaveLength(4);
    expect(offsets(server.received)).toEqual(['0', '4']);
    // The second page's connection closes; the first page's stays in the keep-alive pool.
    const second = server.received[1]?.socket;
    await expect.poll(() => second && server.isOpen(second), { timeout: 5_000 }).toBe(false);
  });

  it('the signal aborts the iteration between pages and during a request', async () => {
    const server = await pagingServer(10, 4);
    const ocs = new Ocs(clientOf(server));
    const controller = new AbortController();
    const ids: string[] = [];
    const iterate = async () => {
      for await (const lead of ocs.leads.list({ limit: 4 }, { signal: controller.signal })) {
        ids.push(lead.id);
        if (ids.length === 4) setTimeout(() => controller.abort(), 50);
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(OcsAbortError);
    expect(ids).toHaveLength(4);
  });
});

describe('withResponse() and asResponse()', () => {
  const answersCampaign = () =>
    startServer((_request, response) =>
      json(response, 200, { success: true, campaign: { id: campaign_id } }, { 'X-Request-ID': 'req_raw_1' }),
    );

  it('withResponse(): the result and its Response, from one request', async () => {
    const server = await answersCampaign();
    const { data, response } = await new Ocs(clientOf(server)).campaigns.get({ campaign_id }).withResponse();
    expect(data.campaign.id).toBe(campaign_id);
    expect(data.requestId).toBe('req_raw_1');
    expect(response.headers.get('x-request-id')).toBe('req_raw_1');
    expect(response.url).toBe(`${server.baseUrl}/campaigns/${campaign_id}`);
    expect(server.received).toHaveLength(1);
  });

  it('asResponse(): the Response with its body unread, from one request; on a list, instead of the pages', async () => {
    const server = await answersCampaign();
    const ocs = new Ocs(clientOf(server));
    const response = await ocs.campaigns.get({ campaign_id }).asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual({ success: true, campaign: { id: campaign_id } });
    const list = await ocs.leads.list({ limit: 1 }).asResponse();
    expect(list.bodyUsed).toBe(false);
    expect(server.received.map(({ url }) => url)).toEqual([`/v1/campaigns/${campaign_id}`, '/v1/leads?limit=1']);
  });

  it('asResponse() once the call is under way: a clear error, no second request', async () => {
    const server = await answersCampaign();
    const call = new Ocs(clientOf(server)).campaigns.get({ campaign_id });
    await call;
    await expect(call.asResponse()).rejects.toThrow(/asResponse\(\) must be chained on the call itself/);
    expect(server.received).toHaveLength(1);
  });

  it('an error answer throws the package entry’s typed error, awaited or asResponse()', async () => {
    const server = await startServer((_request, response) =>
      json(response, 404, { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'No such campaign.' }),
    );
    const ocs = new Ocs(clientOf(server));
    await expect(ocs.campaigns.get({ campaign_id })).rejects.toBeInstanceOf(OcsNotFoundError);
    await expect(ocs.campaigns.get({ campaign_id }).asResponse()).rejects.toBeInstanceOf(OcsNotFoundError);
    await expect(ocs.campaigns.get({ campaign_id }).withResponse()).rejects.toMatchObject({
      code: 'CAMPAIGN_NOT_FOUND',
    });
  });
});

describe('per-call options, hooks and the client', () => {
  it('headers, requestId and idempotencyKey travel as with the function', async () => {
    const server = await startServer((_request, response) =>
      json(response, 201, { success: true, campaign_id, message: 'Created as a draft.' }),
    );
    const ocs = new Ocs(clientOf(server, { headers: { 'X-Team': 'growth' } }));
    const result = await ocs.campaigns.create(
      { name: 'Fintech CFOs' },
      { idempotencyKey: 'sync-1', requestId: 'req_mine_1', headers: { 'X-Trace': 't-1' } },
    );
    expect(result.idempotencyKey).toBe('sync-1');
    const [received] = server.received;
    expect(received?.headers).toMatchObject({
      'idempotency-key': 'sync-1',
      'x-request-id': 'req_mine_1',
      'x-trace': 't-1',
      'x-team': 'growth',
      authorization: `Bearer ${apiKey}`,
    });
    expect(JSON.parse(received?.body ?? '')).toEqual({ name: 'Fintech CFOs' });
  });

  /** Answers 503 (`Retry-After: 0`) to the first request, then the campaign. */
  const unavailableOnce = () =>
    startServer((_request, response, index) =>
      index === 0
        ? json(response, 503, { success: false, error: 'UPSTREAM_TIMEOUT', message: 'Again.' }, { 'Retry-After': '0' })
        : json(response, 200, { success: true, campaign: { id: campaign_id } }),
    );

  it('maxRetries, timeoutMs and signal per call', async () => {
    const server = await unavailableOnce();
    await expect(new Ocs(clientOf(server)).campaigns.get({ campaign_id }, { maxRetries: 0 })).rejects.toBeInstanceOf(
      OcsServiceUnavailableError,
    );
    expect(server.received).toHaveLength(1);
    const hanging = await startServer(() => undefined);
    const started = Date.now();
    await expect(new Ocs(clientOf(hanging)).campaigns.get({ campaign_id }, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      OcsTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const controller = new AbortController();
    const call = new Ocs(clientOf(hanging)).campaigns.get({ campaign_id }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toBeInstanceOf(OcsAbortError);
  });

  it('retries as the function does: a retried 503 then the answer', async () => {
    const server = await unavailableOnce();
    const result = await new Ocs(clientOf(server)).campaigns.get({ campaign_id });
    expect(result.campaign.id).toBe(campaign_id);
    expect(server.received).toHaveLength(2);
  });

  it('the hooks of ocs.client.use() see resource calls and their pages', async () => {
    const server = await pagingServer(3);
    const ocs = new Ocs(clientOf(server));
    const seen: string[] = [];
    ocs.client.use({ onRequest: ({ request }) => void seen.push(new URL(request.url).pathname) });
    await ocs.leads.list({ limit: 2 });
    for await (const lead of ocs.leads.list({ limit: 2 })) void lead;
    expect(seen).toEqual(['/v1/leads', '/v1/leads', '/v1/leads']);
  });

  it('a call never awaited is sent all the same', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, lead_id }));
    void new Ocs(clientOf(server)).leads.delete({ lead_id });
    await expect.poll(() => server.received.length).toBe(1);
    expect(server.received[0]).toMatchObject({ method: 'DELETE', url: `/v1/leads/${lead_id}` });
  });

  it('over the client given, or a new one from options', async () => {
    const server = await startServer((_request, response) => json(response, 200, { success: true, campaign: {} }));
    const client = clientOf(server);
    expect(new Ocs(client).client).toBe(client);
    const own = new Ocs({ apiKey, baseUrl: server.baseUrl });
    expect(own.client).not.toBe(client);
    await own.campaigns.get({ campaign_id });
    expect(server.received[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(() => new Ocs({ apiKey: 'Bearer x' })).toThrow(OcsError);
  });

  it('refuses options createClient refuses: an unknown one, a fetch that is not a function', () => {
    expect(() => new Ocs({ apiKey, baseURL: 'http://ocs.test' } as never)).toThrow(OcsError);
    expect(() => new Ocs({ apiKey, baseURL: 'http://ocs.test' } as never)).toThrow(/^Unknown option "baseURL"/);
    expect(() => new Ocs({ apiKey, fetch: {} as never })).toThrow('Invalid fetch: expected a function.');
    expect(() => new Ocs({ apiKey, baseUrl: 'http://localhost:99999' })).toThrow(/^Invalid baseUrl/);
  });

  it('returns an OcsPromise, or a ListPromise for a list: promises that a Promise adopts', async () => {
    const server = await startServer((_request, response) => json(response, 201, { success: true, campaign_id }));
    const ocs = new Ocs(clientOf(server));
    const call = ocs.campaigns.create({ name: 'A' });
    expect(call).toBeInstanceOf(OcsPromise);
    expect(Object.prototype.toString.call(call)).toBe('[object OcsPromise]');
    expect((await Promise.all([call]))[0]?.campaign_id).toBe(campaign_id);
    const list = ocs.leads.list();
    expect(list).toBeInstanceOf(ListPromise);
    await list;
    await expect(createCampaign(clientOf(server), { name: 'B' })).resolves.toMatchObject({ campaign_id });
  });
});
