/**
 * One deadline across every attempt and wait, the caller's AbortSignal, and network
 * errors: MSW handlers that hang, answer slowly, or fail the connection.
 */
import { createServer } from 'node:net';
import { delay, http, HttpResponse, passthrough } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createCampaign,
  createClient,
  getCampaign,
  listLeads,
  OcsAbortError,
  OcsConnectionError,
  OcsRateLimitError,
  OcsTimeoutError,
  paginate,
} from '../src/index.ts';
import { apiKey, baseUrl, errorBody, testClient, useMsw } from './helpers/msw.ts';

const { server, seen } = useMsw();
const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const campaignUrl = `${baseUrl}/campaigns/${campaign_id}`;
const unavailable = () => HttpResponse.json(errorBody('UPSTREAM_TIMEOUT'), { status: 503 });

beforeEach(() => void vi.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => void vi.restoreAllMocks());

describe('deadline (timeoutMs)', () => {
  it('spans every attempt: slow failing attempts end in OcsTimeoutError at the deadline', async () => {
    server.use(
      http.get(campaignUrl, async () => {
        await delay(300);
        return unavailable();
      }),
    );
    const started = Date.now();
    const error = await getCampaign(testClient({ timeoutMs: 500, maxRetries: 5 }), { campaign_id }).catch(
      (e: unknown) => e,
    );
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(OcsTimeoutError);
    expect((error as Error).message).toMatch(/500 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(2_000);
    expect(seen).toHaveLength(2);
  });

  it('applies to one attempt that hangs', async () => {
    server.use(http.get(campaignUrl, () => delay('infinite')));
    await expect(getCampaign(testClient(), { campaign_id }, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      OcsTimeoutError,
    );
  });

  it('fails at once, with the error answer, when the wait asked for would pass the deadline', async () => {
    server.use(
      http.get(campaignUrl, () =>
        HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '5' } }),
      ),
    );
    const started = Date.now();
    const error = await getCampaign(testClient({ timeoutMs: 2_000 }), { campaign_id }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(OcsRateLimitError);
    expect((error as OcsRateLimitError).retryAfter).toBe(5);
    expect(seen).toHaveLength(1);
  });

  it('also covers the path API', async () => {
    server.use(http.get(campaignUrl, () => delay('infinite')));
    await expect(
      testClient({ timeoutMs: 200 }).GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } }),
    ).rejects.toBeInstanceOf(OcsTimeoutError);
  });
});

describe('AbortSignal', () => {
  it('aborts a wait between attempts at once', async () => {
    server.use(
      http.get(campaignUrl, () =>
        HttpResponse.json(errorBody('RATE_LIMITED'), { status: 429, headers: { 'Retry-After': '30' } }),
      ),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 100);
    const started = Date.now();
    const error = await getCampaign(testClient(), { campaign_id }, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(OcsAbortError);
    expect((error as OcsAbortError).cause).toEqual(new Error('user left'));
    expect(seen).toHaveLength(1);
  });

  it('aborts the request in flight', async () => {
    server.use(http.get(campaignUrl, () => delay('infinite')));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    await expect(getCampaign(testClient(), { campaign_id }, { signal: controller.signal })).rejects.toBeInstanceOf(
      OcsAbortError,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses to start with a signal already aborted', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.json({ success: true, campaign: {} })));
    await expect(getCampaign(testClient(), { campaign_id }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      OcsAbortError,
    );
  });

  it("aborts the path API with openapi-fetch's own signal option", async () => {
    server.use(http.get(campaignUrl, () => delay('infinite')));
    await expect(
      testClient().GET('/campaigns/{campaign_id}', {
        params: { path: { campaign_id } },
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toBeInstanceOf(OcsAbortError);
  });

  it('stops paging', async () => {
    server.use(
      http.get(`${baseUrl}/leads`, async ({ request }) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        if (offset > 0) await delay('infinite');
        return HttpResponse.json({
          success: true,
          leads: [{ id: 'a' }],
          count: 1,
          total: 10,
          limit: 1,
          offset,
          has_more: true,
          page: 1,
        });
      }),
    );
    const controller = new AbortController();
    const seenItems: unknown[] = [];
    const iterate = async () => {
      for await (const lead of paginate(testClient(), listLeads, {}, { signal: controller.signal })) {
        seenItems.push(lead);
        setTimeout(() => controller.abort(), 50);
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(OcsAbortError);
    expect(seenItems).toHaveLength(1);
  });
});

describe('a fetch that ignores the signal', () => {
  // A custom fetch (a mock's, a wrapper) may never look at init.signal: the SDK must not
  // count on it to stop.
  const calls: string[] = [];
  const deaf =
    (answer: () => Promise<Response>): typeof fetch =>
    (input) => {
      calls.push(String(input));
      return answer();
    };
  const never = () => new Promise<Response>(() => {});
  const page = (offset: number) =>
    Response.json({ success: true, leads: [{ id: 'a' }], count: 1, total: 5, limit: 1, offset, has_more: offset < 4 });
  beforeEach(() => void (calls.length = 0));

  it('sends nothing when the signal is already aborted', async () => {
    const client = testClient({ fetch: deaf(async () => Response.json({ success: true }, { status: 201 })) });
    const error = await createCampaign(client, { name: 'Q4' }, { signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OcsAbortError);
    expect(calls).toHaveLength(0);
  });

  it('times out a fetch that answers after the deadline', async () => {
    const late = () => delay(1_000).then(() => Response.json({ success: true, campaign: {} }));
    const client = testClient({ fetch: deaf(late) });
    await expect(getCampaign(client, { campaign_id }, { timeoutMs: 100 })).rejects.toBeInstanceOf(OcsTimeoutError);
  });

  it('aborts a fetch that never settles, on both APIs', async () => {
    const client = testClient({ fetch: deaf(never) });
    await expect(getCampaign(client, { campaign_id }, { signal: AbortSignal.timeout(50) })).rejects.toBeInstanceOf(
      OcsAbortError,
    );
    await expect(
      client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } }, signal: AbortSignal.timeout(50) }),
    ).rejects.toBeInstanceOf(OcsAbortError);
  });

  it('times out a body that never ends, on both APIs', async () => {
    const endless = () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{')) }));
    const client = testClient({ fetch: deaf(async () => endless()), timeoutMs: 100 });
    await expect(getCampaign(client, { campaign_id })).rejects.toBeInstanceOf(OcsTimeoutError);
    await expect(client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } })).rejects.toBeInstanceOf(
      OcsTimeoutError,
    );
  });

  it("times out a named call's error body through middlewares, or aborts it, by the call's own options", async () => {
    const stalled = () =>
      new Response(
        new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"success":')) }),
        { status: 404 },
      );
    const client = testClient({ fetch: deaf(async () => stalled()), timeoutMs: 60_000, maxRetries: 0 });
    client.use({ onRequest: () => undefined });
    await expect(getCampaign(client, { campaign_id }, { timeoutMs: 100 })).rejects.toBeInstanceOf(OcsTimeoutError);
    await expect(getCampaign(client, { campaign_id }, { signal: AbortSignal.timeout(50) })).rejects.toBeInstanceOf(
      OcsAbortError,
    );
  });

  it("times out a path API call's own fetch (per request) that never settles", async () => {
    const client = testClient({ timeoutMs: 100 });
    await expect(
      client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } }, fetch: never }),
    ).rejects.toBeInstanceOf(OcsTimeoutError);
  });

  it('leaves a stream to the caller: parseAs stream answers at once, within the deadline', async () => {
    const client = testClient({ fetch: deaf(async () => new Response('{"success":true}')), timeoutMs: 100 });
    const { data } = await client.GET('/campaigns/{campaign_id}', {
      params: { path: { campaign_id } },
      parseAs: 'stream',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Read after the deadline would have passed: the stream is not torn down by it.
    expect(await new Response(data).text()).toBe('{"success":true}');
  });

  it('stops paging: no page is requested after the abort', async () => {
    const controller = new AbortController();
    const client = testClient({ fetch: deaf(async () => page(calls.length - 1)) });
    const iterate = async () => {
      for await (const lead of paginate(client, listLeads, {}, { signal: controller.signal })) {
        expect(lead).toEqual({ id: 'a' });
        controller.abort();
      }
    };
    await expect(iterate()).rejects.toBeInstanceOf(OcsAbortError);
    expect(calls).toHaveLength(1);
  });
});

describe('network errors', () => {
  it('retries a GET, then throws OcsConnectionError with the cause', async () => {
    server.use(http.get(campaignUrl, () => HttpResponse.error()));
    const error = await getCampaign(testClient(), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect((error as OcsConnectionError).message).toMatch(
      /^http:\/\/ocs\.test\/v1\/campaigns\/[-0-9a-f]+ failed 3x: .*\. Check baseUrl and the network\.$/,
    );
    expect((error as OcsConnectionError).cause).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(3);
  });

  it('recovers when a retry gets through', async () => {
    let calls = 0;
    server.use(
      http.get(campaignUrl, () =>
        calls++ === 0 ? HttpResponse.error() : HttpResponse.json({ success: true, campaign: { id: campaign_id } }),
      ),
    );
    const result = await getCampaign(testClient(), { campaign_id });
    expect(result.campaign.id).toBe(campaign_id);
  });

  it('says what failed when nothing listens on the port', async () => {
    // A port that was free a moment ago: the connection is refused.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    server.use(http.all('*', () => passthrough()));
    const client = createClient({ apiKey, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1 });
    const error = await getCampaign(client, { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect((error as Error).message).toMatch(/failed 2x: connect ECONNREFUSED 127\.0\.0\.1:\d+\. Check baseUrl/);
  });
});

describe('which error stops a call', () => {
  // A fetch that, when the SDK tears its request down, also cancels the caller's related work.
  const cancelling =
    (caller: () => AbortController): typeof fetch =>
    (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => {
          caller().abort();
          reject(init.signal?.reason as Error);
        });
      });

  it('is the first: a timeout whose abort aborts the caller signal in turn stays a timeout, on both APIs', async () => {
    let caller = new AbortController();
    const client = testClient({ fetch: cancelling(() => caller), timeoutMs: 100 });
    await expect(getCampaign(client, { campaign_id }, { signal: caller.signal })).rejects.toBeInstanceOf(
      OcsTimeoutError,
    );
    caller = new AbortController();
    await expect(
      client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } }, signal: caller.signal }),
    ).rejects.toBeInstanceOf(OcsTimeoutError);
  });

  it('is kept by the SDK, not read from the signal: an AbortController without `reason` (a polyfill) times out as a timeout', async () => {
    // As the `abort-controller` package (or Safari before 15.4) implements it: abort() takes no reason.
    class Signal extends EventTarget {
      aborted = false;
      onabort = null;
      get reason() {
        return undefined;
      }
    }
    class ReasonlessController {
      signal = new Signal();
      abort() {
        if (this.signal.aborted) return;
        this.signal.aborted = true;
        this.signal.dispatchEvent(new Event('abort'));
      }
    }
    vi.stubGlobal('AbortController', ReasonlessController);
    try {
      const honouring: typeof fetch = (_input, init) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () =>
            reject(new DOMException('The operation was aborted.', 'AbortError')),
          ),
        );
      const client = testClient({ fetch: honouring, timeoutMs: 100 });
      await expect(createCampaign(client, { name: 'Q4' })).rejects.toBeInstanceOf(OcsTimeoutError);
      await expect(getCampaign(client, { campaign_id })).rejects.toBeInstanceOf(OcsTimeoutError);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
