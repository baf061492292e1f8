/**
 * The list iterators against MSW handlers that page like the service: `offset`/`limit`,
 * `total`, `has_more`, and a request ID per page.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { listAccounts, listDeals, listLeads, listWebhooks, OcsError, paginate, type Page } from '../src/index.ts';
import { baseUrl, testClient, useMsw } from './helpers/msw.ts';

const { server, seen } = useMsw();

/** Serves `total` items made on demand, newest first, like GET /leads. */
function servePages(path: string, key: string, total: number, make = (index: number) => ({ id: `lead-${index}` })) {
  server.use(
    http.get(`${baseUrl}${path}`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      const limit = Number(query.get('limit') ?? 20);
      const offset = Number(query.get('offset') ?? 0);
      const items = [];
      for (let index = offset; index < Math.min(offset + limit, total); index++) items.push(make(index));
      return HttpResponse.json(
        {
          success: true,
          [key]: items,
          count: items.length,
          total,
          limit,
          offset,
          has_more: offset + items.length < total,
          page: Math.floor(offset / limit) + 1,
        },
        { headers: { 'X-Request-ID': `req_offset_${offset}`, 'RateLimit-Remaining': String(99 - seen.length) } },
      );
    }),
  );
}

describe('items', () => {
  it('iterates 1,050 leads at 100 a page, by offset (never page)', async () => {
    servePages('/leads', 'leads', 1_050);
    const ids: string[] = [];
    for await (const lead of paginate(testClient(), listLeads, {}, { pageSize: 100 })) ids.push(lead.id);
    expect(ids).toHaveLength(1_050);
    expect(new Set(ids).size).toBe(1_050);
    expect(ids[1_049]).toBe('lead-1049');
    expect(seen).toHaveLength(11);
    expect(seen.map((request) => request.url.searchParams.get('offset'))).toEqual(
      Array.from({ length: 11 }, (_, page) => String(page * 100)),
    );
    expect(seen.every((request) => request.url.searchParams.get('limit') === '100')).toBe(true);
    expect(seen.some((request) => request.url.searchParams.has('page'))).toBe(false);
  });

  it('keeps the filters on every page and starts at the given offset', async () => {
    servePages('/crm/deals', 'deals', 120, (index) => ({ id: `deal-${index}`, name: `Deal ${index}` }));
    const lead_id = '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40';
    const names: string[] = [];
    for await (const deal of paginate(testClient(), listDeals, { lead_id, offset: 100 }, { pageSize: 50 })) {
      names.push(deal.name);
    }
    expect(names).toEqual(Array.from({ length: 20 }, (_, index) => `Deal ${100 + index}`));
    expect(seen.map((request) => request.url.search)).toEqual([`?lead_id=${lead_id}&offset=100&limit=50`]);
  });

  it('uses the service default page size when none is given', async () => {
    servePages('/leads', 'leads', 45);
    const all = await paginate(testClient(), listLeads).toArray({ limit: 1_000 });
    expect(all).toHaveLength(45);
    expect(seen.map((request) => request.url.search)).toEqual(['?offset=0', '?offset=20', '?offset=40']);
  });

  it('stops fetching when the loop breaks', async () => {
    servePages('/leads', 'leads', 1_050);
    let count = 0;
    for await (const lead of paginate(testClient(), listLeads, {}, { pageSize: 100 })) {
      expect(lead.id).toBe(`lead-${count}`);
      if (++count === 150) break;
    }
    expect(seen).toHaveLength(2);
  });

  it('stops at maxItems, fetching no more pages than needed', async () => {
    servePages('/leads', 'leads', 1_050);
    const paginator = paginate(testClient(), listLeads, {}, { pageSize: 100, maxItems: 250 });
    const ids: string[] = [];
    for await (const lead of paginator) ids.push(lead.id);
    expect(ids).toHaveLength(250);
    expect(seen).toHaveLength(3);
  });

  it('counts a fractional maxItems as its whole part, requesting no page for the fraction', async () => {
    servePages('/leads', 'leads', 1_050);
    const ids: string[] = [];
    for await (const lead of paginate(testClient(), listLeads, {}, { pageSize: 100, maxItems: 200.5 }))
      ids.push(lead.id);
    expect(ids).toHaveLength(200);
    expect(seen).toHaveLength(2);
  });

  it('pages a campaign sub-resource (webhooks) and an empty list', async () => {
    const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
    servePages(`/campaigns/${campaign_id}/webhooks`, 'webhooks', 0);
    expect(await paginate(testClient(), listWebhooks, { campaign_id }).toArray({ limit: 10 })).toEqual([]);
    expect(seen[0]?.url.pathname).toBe(`/v1/campaigns/${campaign_id}/webhooks`);
  });

  it('does not loop on a page that claims more but holds nothing', async () => {
    server.use(
      http.get(`${baseUrl}/accounts`, () =>
        HttpResponse.json({ success: true, accounts: [], count: 0, total: 10, limit: 500, offset: 0, has_more: true }),
      ),
    );
    expect(await paginate(testClient(), listAccounts).toArray({ limit: 100 })).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it.each([
    ['negative', -2],
    ['zero', 0],
    ['past the items', 50],
    ['a string', '2'],
    ['missing', undefined],
  ])('pages by the items received when count is %s', async (_, count) => {
    // Five leads, two a page; every page's `count` is wrong in the same way.
    server.use(
      http.get(`${baseUrl}/leads`, ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        const leads = [offset, offset + 1].filter((i) => i < 5).map((i) => ({ id: `lead-${i}` }));
        return HttpResponse.json({ success: true, leads, count, total: 5, limit: 2, offset, has_more: offset + 2 < 5 });
      }),
    );
    const ids = await paginate(testClient(), listLeads, {}, { pageSize: 2 }).toArray({ limit: 100 });
    expect(ids.map((lead) => lead.id)).toEqual(['lead-0', 'lead-1', 'lead-2', 'lead-3', 'lead-4']);
    expect(seen.map((request) => request.url.searchParams.get('offset'))).toEqual(['0', '2', '4']);
  });
});

describe('pages', () => {
  it('expose items, total, has_more, offset, count, limit and the request ID of each page', async () => {
    servePages('/leads', 'leads', 250);
    const pages: Omit<Page<unknown>, 'items' | 'rateLimit'>[] = [];
    for await (const { items, rateLimit, ...page } of paginate(
      testClient(),
      listLeads,
      {},
      { pageSize: 100 },
    ).pages()) {
      expect(items).toHaveLength(page.count);
      expect(rateLimit.remaining).toBeTypeOf('number');
      pages.push(page);
    }
    expect(pages).toEqual([
      { total: 250, has_more: true, offset: 0, count: 100, limit: 100, requestId: 'req_offset_0' },
      { total: 250, has_more: true, offset: 100, count: 100, limit: 100, requestId: 'req_offset_100' },
      { total: 250, has_more: false, offset: 200, count: 50, limit: 100, requestId: 'req_offset_200' },
    ]);
  });

  it('cut the last page at maxItems', async () => {
    servePages('/leads', 'leads', 1_050);
    const counts: number[] = [];
    for await (const page of paginate(testClient(), listLeads, {}, { pageSize: 100, maxItems: 130 }).pages()) {
      counts.push(page.items.length);
    }
    expect(counts).toEqual([100, 30]);
  });
});

describe('toArray', () => {
  it('collects at most limit items', async () => {
    servePages('/leads', 'leads', 1_050);
    const leads = await paginate(testClient(), listLeads, {}, { pageSize: 100 }).toArray({ limit: 120 });
    expect(leads.map((lead) => lead.id)).toEqual(Array.from({ length: 120 }, (_, index) => `lead-${index}`));
    expect(seen).toHaveLength(2);
  });

  it('refuses to run without a limit', async () => {
    servePages('/leads', 'leads', 10);
    const paginator = paginate(testClient(), listLeads);
    // @ts-expect-error limit is required
    await expect(paginator.toArray()).rejects.toThrow(OcsError);
    // @ts-expect-error limit is required
    await expect(paginator.toArray({})).rejects.toThrow(/toArray\(\) needs \{ limit \}/);
    await expect(paginator.toArray({ limit: Number.NaN })).rejects.toThrow(/needs \{ limit \}/);
    expect(seen).toHaveLength(0);
    expect(await paginator.toArray({ limit: 0 })).toEqual([]);
  });
});

describe('memory', () => {
  it('stays bounded over 200,000 items: no page is kept', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const padding = 'x'.repeat(200);
    servePages('/leads', 'leads', 200_000, (index) => ({ id: `lead-${index}`, notes: `${padding}${index}` }));
    let count = 0;
    let baseline = 0;
    let peak = 0;
    for await (const page of paginate(testClient(), listLeads, {}, { pageSize: 1_000 }).pages()) {
      count += page.items.length;
      seen.length = 0; // the test's own log of requests is not the SDK's memory
      if (count === 10_000) {
        gc();
        baseline = process.memoryUsage().heapUsed;
      } else if (count > 10_000 && count % 20_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed);
      }
    }
    expect(count).toBe(200_000);
    // Keeping the items would take over 50 MB (each holds a 200-character string).
    expect(peak - baseline).toBeLessThan(8 * 1024 * 1024);
  }, 120_000);
});
