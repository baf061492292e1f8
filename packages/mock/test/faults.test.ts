/**
 * Fault scenarios behind MSW (in process): a connection reset, a request left hanging, an
 * answer cut off mid-body, and seeded chaos; each seen as raw `fetch` sees it and through the
 * SDK's retries and deadline, with the journal saying what happened.
 */
import {
  createAccountConnectLink,
  createCampaign,
  getCampaign,
  listCampaigns,
  OcsConnectionError,
  OcsTimeoutError,
} from '@ocs/sdk';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { OcsMock } from '../src/node/index.ts';
import { faultOutcome } from './support/fault-outcome.ts';
import { mockedApi } from './support/setup.ts';

const { mock, client } = await mockedApi({ seed: 6 });
const campaign_id = mock.data.campaigns[0]?.id ?? '';
const get = (path: string, init: RequestInit = {}) =>
  fetch(`${mock.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${mock.apiKey}` } });
const faults = (operationId: 'listCampaigns' | 'createCampaign' | 'getCampaign') =>
  mock.requests.of(operationId).map((entry) => entry.fault);
/** Waits until the journal's entry `seq` is complete (a hang's `durationMs` is set when it ends). */
async function settled(target: OcsMock, seq: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (target.requests.all().find((entry) => entry.seq === seq)?.durationMs != null) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`entry ${seq} never completed`);
}

describe('networkError', () => {
  it('resets the connection before the application: fetch rejects, nothing is written', async () => {
    mock.scenarios.networkError({ operations: ['createCampaign'], times: 1 });
    const error = await fetch(`${mock.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Lost' }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((await listCampaigns(client())).total).toBe(3);
    // Other operations were never affected, and `times` is spent.
    expect(faults('createCampaign')).toEqual(['networkError']);
    expect((await createCampaign(client(), { name: 'Kept' })).campaign?.name).toBe('Kept');
  });

  it('the SDK retries a GET through a one-shot reset, and stops after maxRetries when it persists', async () => {
    mock.scenarios.networkError({ operations: ['listCampaigns'], times: 1 });
    expect((await listCampaigns(client())).total).toBe(3);
    expect(faults('listCampaigns')).toEqual(['networkError', null]);

    mock.scenarios.networkError({ operations: ['getCampaign'] });
    const error = await getCampaign(client({ maxRetries: 2 }), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect(faults('getCampaign')).toEqual(['networkError', 'networkError', 'networkError']);
  });

  it('a POST without Idempotency-Key is never retried; createCampaign (with a key) is', async () => {
    mock.scenarios.networkError({ times: 1 });
    const error = await createAccountConnectLink(client(), { platform: 'email' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect(mock.requests.of('createAccountConnectLink')).toHaveLength(1);
    mock.scenarios.networkError({ times: 1 });
    await createCampaign(client(), { name: 'Retried' });
    const [first, second] = mock.requests.of('createCampaign');
    expect(first?.fault).toBe('networkError');
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  });

  it('mock.fetch rejects as fetch does', async () => {
    mock.scenarios.networkError({ times: 1 });
    const request = new Request(`${mock.baseUrl}/campaigns`, { headers: { Authorization: `Bearer ${mock.apiKey}` } });
    await expect(mock.fetch(request)).rejects.toThrow(TypeError);
    expect((await mock.fetch(request.clone())).status).toBe(200);
  });
});

describe('hang', () => {
  it("ends at the SDK's timeoutMs with OcsTimeoutError, and the hang ends with the client's signal", async () => {
    mock.scenarios.hang({ operations: ['getCampaign'], times: 1 });
    const started = Date.now();
    const error = await getCampaign(client({ timeoutMs: 300 }), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsTimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const entry = mock.requests.last('getCampaign');
    expect(entry).toMatchObject({ fault: 'hang', response: null });
    // Completed when MSW aborted the handler's request: nothing is left waiting.
    await settled(mock, entry?.seq ?? 0);
    expect((await getCampaign(client(), { campaign_id })).campaign.id).toBe(campaign_id);
  });

  it('is visible in the journal while it hangs, and reset() ends it with a connection reset', async () => {
    mock.scenarios.hang();
    const pending = get('/campaigns').catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mock.requests.last()).toMatchObject({ operationId: 'listCampaigns', fault: 'hang', durationMs: null });
    mock.reset();
    expect(await pending).toBeInstanceOf(TypeError);
    expect((await get('/campaigns')).status).toBe(200);
  });

  it('scenarios.clear() lets it go too', async () => {
    mock.scenarios.hang({ times: 1 });
    const pending = mock.fetch(new Request(`${mock.baseUrl}/campaigns`)).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    mock.scenarios.clear();
    expect(await pending).toBeInstanceOf(TypeError);
  });
});

describe('truncate', () => {
  it('sends the status and headers, then `after` bytes of the body, then the connection drops', async () => {
    mock.scenarios.truncate({ operations: ['listCampaigns'], after: 25, times: 1 });
    const response = await get('/campaigns');
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Request-ID')).toMatch(/\S/);
    const reader = response.body?.getReader();
    const received: number[] = [];
    const error = await (async () => {
      for (;;) {
        const { value, done } = (await reader?.read()) ?? { done: true, value: undefined };
        if (done) return undefined;
        received.push(...value);
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(received).toHaveLength(25);
    const entry = mock.requests.last('listCampaigns');
    expect(Number(response.headers.get('Content-Length'))).toBe(JSON.stringify(entry?.response?.body).length);
    // The journal has the whole answer the application made, and says it was cut.
    expect(entry).toMatchObject({ fault: 'truncate', response: { status: 200, body: { total: 3 } } });
  });

  it('the SDK retries a GET whose body was cut; a POST without a key fails with OcsConnectionError', async () => {
    mock.scenarios.truncate({ operations: ['listCampaigns'], times: 1 });
    expect((await listCampaigns(client())).total).toBe(3);
    expect(faults('listCampaigns')).toEqual(['truncate', null]);

    mock.scenarios.truncate({ operations: ['createAccountConnectLink'], times: 1 });
    const error = await createAccountConnectLink(client(), { platform: 'email' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsConnectionError);
    expect((error as Error).message).toMatch(/the answer was cut off/);
  });

  it('the write happened: a create retried with its Idempotency-Key gets the first answer, one campaign', async () => {
    mock.scenarios.truncate({ operations: ['createCampaign'], times: 1 });
    const created = await createCampaign(client(), { name: 'Once' });
    const [cut, replay] = mock.requests.of('createCampaign');
    expect(cut?.fault).toBe('truncate');
    expect(cut?.response?.status === 201 && cut.response.body.campaign_id).toBe(created.campaign_id);
    expect(replay?.response?.status === 201 && replay.response.body.campaign_id).toBe(created.campaign_id);
    expect((await listCampaigns(client())).total).toBe(4);
  });

  it('an answer without a body has nothing to cut: it is lost whole', async () => {
    // An override answering 204 stands for any answer without a body.
    mock.use(http.get(`${mock.baseUrl}/campaigns`, () => new Response(null, { status: 204 })));
    mock.scenarios.truncate({ times: 1 });
    await expect(get('/campaigns')).rejects.toThrow(TypeError);
    expect(mock.requests.last()).toMatchObject({ fault: 'truncate', response: { status: 204, body: undefined } });
  });
});

describe('chaos', () => {
  /** 40 GETs in a row; what each got. */
  async function run(seed: number, rate = 0.3): Promise<Array<string | number>> {
    mock.reset();
    mock.scenarios.chaos({ rate, seed, kinds: ['networkError', 'truncate', 'unavailable'], retryAfter: 0 });
    const outcomes: Array<string | number> = [];
    for (let i = 0; i < 40; i++) outcomes.push(await faultOutcome(get('/campaigns'), () => 'reset'));
    return outcomes;
  }

  it('the same seed gives the same faults to the same requests; another seed others', async () => {
    const first = await run(42);
    const again = await run(42);
    expect(again).toEqual(first);
    expect(first).toContain('reset');
    expect(first).toContain('cut');
    expect(first).toContain(503);
    expect(first.filter((outcome) => outcome === 200).length).toBeGreaterThan(15);
    expect(await run(43)).not.toEqual(first);
    expect((await run(42, 0)).every((outcome) => outcome === 200)).toBe(true);
  });

  it('the SDK gets through chaos with its retries, with the same attempts for the same seed', async () => {
    const attempts = async () => {
      mock.reset();
      mock.scenarios.chaos({ rate: 0.3, seed: 7, retryAfter: 0 });
      const sdk = client({ maxRetries: 6 });
      for (let i = 0; i < 15; i++) expect((await getCampaign(sdk, { campaign_id })).campaign.id).toBe(campaign_id);
      return mock.requests.all().map((entry) => entry.fault ?? entry.response?.status);
    };
    const first = await attempts();
    expect(first.length).toBeGreaterThan(15);
    expect(await attempts()).toEqual(first);
  });

  it('only the operations named; hang only when asked for', async () => {
    mock.scenarios.chaos({ rate: 1, seed: 1, kinds: ['networkError'], operations: ['listCampaigns'] });
    await expect(get('/campaigns')).rejects.toThrow(TypeError);
    expect((await get(`/campaigns/${campaign_id}`)).status).toBe(200);
    mock.scenarios.chaos({ rate: 1, seed: 1, kinds: ['hang'] });
    const error = await getCampaign(client({ timeoutMs: 200 }), { campaign_id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsTimeoutError);
  });

  it('refuses a rate outside 0..1, an unknown kind, a seed that is not an integer, an unknown operation', () => {
    expect(() => mock.scenarios.chaos({ rate: 2, seed: 1 })).toThrow(/rate must be from 0 to 1/);
    // @ts-expect-error not a kind
    expect(() => mock.scenarios.chaos({ rate: 0.1, seed: 1, kinds: ['explode'] })).toThrow(/not explode/);
    expect(() => mock.scenarios.chaos({ rate: 0.1, seed: 1.5 })).toThrow(/seed must be an integer/);
    // @ts-expect-error not an operationId
    expect(() => mock.scenarios.hang({ operations: ['launchRocket'] })).toThrow(/unknown operationId/);
    expect(() => mock.scenarios.networkError({ times: 0 })).toThrow(/times must be 1 or more/);
    expect(() => mock.scenarios.truncate({ after: -1 })).toThrow(/after must be a whole number/);
  });
});
