/**
 * The request's AbortSignal, honoured as `fetch` honours it: `mock.fetch` rejects with the
 * signal's reason at once, a request aborted before the call or during added latency writes
 * nothing, and a write the application made stays made. The journal says what happened.
 */
import { createCampaign, createClient, listCampaigns, listLeads, OcsTimeoutError } from '@ocs/sdk';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { mockedApi } from './support/setup.ts';

const { mock } = await mockedApi({ seed: 8 });
/** A client whose every request goes through `mock.fetch` (no MSW). */
const direct = (options: { timeoutMs?: number } = {}) =>
  createClient({
    apiKey: mock.apiKey,
    baseUrl: mock.baseUrl,
    fetch: (input, init) => mock.fetch(new Request(input, init)),
    maxRetries: 0,
    logger: { warn() {} },
    ...options,
  });
const post = (name: string, signal: AbortSignal) =>
  new Request(`${mock.baseUrl}/campaigns`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
    signal,
  });
const campaignsNamed = async (name: string) =>
  (await listCampaigns(direct(), { limit: 500 })).campaigns.filter((campaign) => campaign.name === name);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mock.fetch and an aborted signal', () => {
  it('rejects a request aborted before the call with an AbortError; nothing is written or recorded', async () => {
    const error = await mock.fetch(post('Never', AbortSignal.abort())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(mock.requests.all()).toEqual([]);
    expect(await campaignsNamed('Never')).toEqual([]);

    // Through the SDK: its own abort error, and still nothing created.
    const viaSdk = await createCampaign(direct(), { name: 'Never' }, { signal: AbortSignal.abort() }).catch(
      (e: unknown) => e,
    );
    expect(viaSdk).toBeInstanceOf(Error);
    expect(await campaignsNamed('Never')).toEqual([]);
  });

  it("rejects with the signal's own reason", async () => {
    const reason = new Error('the test gave up');
    const error = await mock.fetch(post('Never', AbortSignal.abort(reason))).catch((e: unknown) => e);
    expect(error).toBe(reason);
  });

  it('rejects as soon as it aborts during added latency, and the request never reaches the application', async () => {
    mock.scenarios.latency(1_000, { operations: ['createCampaign'] });
    mock.scenarios.fail('createCampaign', { status: 503, code: 'UPSTREAM_TIMEOUT', times: 1 });
    const controller = new AbortController();
    const started = Date.now();
    const pending = mock.fetch(post('Late', controller.signal)).catch((e: unknown) => e);
    await sleep(30);
    controller.abort();
    const error = await pending;
    expect((error as DOMException).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(500);
    // Recorded on arrival, left without an answer once the client gave up (as after a hang).
    const entry = mock.requests.last('createCampaign');
    expect(entry).toMatchObject({ response: null, fault: null });
    expect(entry?.durationMs).toEqual(expect.any(Number));
    mock.scenarios.latency(0);
    expect(await campaignsNamed('Late')).toEqual([]);
    // The queued failure was not spent by the abandoned request.
    const next = await mock.fetch(post('Next', new AbortController().signal));
    expect(next.status).toBe(503);
  });

  it("ends at the SDK's timeoutMs when latency is longer", async () => {
    mock.scenarios.latency(1_000, { operations: ['listLeads'] });
    const started = Date.now();
    const error = await listLeads(direct({ timeoutMs: 100 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsTimeoutError);
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('rejects at once when it aborts while the answer is being made; the write is kept', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Holds the request on its way to the application, then lets it through.
    mock.use(
      http.post(`${mock.baseUrl}/campaigns`, async () => {
        await gate;
        return undefined;
      }),
    );
    const controller = new AbortController();
    const pending = mock.fetch(post('Kept', controller.signal)).catch((e: unknown) => e);
    await sleep(20);
    controller.abort();
    expect(((await pending) as DOMException).name).toBe('AbortError');
    release();
    for (let i = 0; i < 100 && mock.requests.last('createCampaign')?.response == null; i++) await sleep(10);
    expect(mock.requests.last('createCampaign')?.response?.status).toBe(201);
    expect(await campaignsNamed('Kept')).toHaveLength(1);
  });
});

describe('MSW and an aborted signal', () => {
  it('a request aborted during added latency never reaches the application', async () => {
    mock.scenarios.latency(500, { operations: ['createCampaign'] });
    const controller = new AbortController();
    const pending = fetch(post('Dropped', controller.signal)).catch((e: unknown) => e);
    await sleep(30);
    controller.abort();
    expect(((await pending) as DOMException).name).toBe('AbortError');
    for (let i = 0; i < 100 && mock.requests.last('createCampaign')?.durationMs == null; i++) await sleep(10);
    expect(mock.requests.last('createCampaign')).toMatchObject({ response: null, fault: null });
    await sleep(500);
    expect(await campaignsNamed('Dropped')).toEqual([]);
  });
});
