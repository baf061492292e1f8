/**
 * The retry table of the README, on a real node:http server: which answers are retried for
 * which requests, `Retry-After` in seconds or as an HTTP date, the cap, `maxRetries` per
 * client and per call, connection failures, and what a retried DELETE answered 404 gives.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createAccountConnectLink,
  createCampaign,
  createLead,
  deleteLead,
  getCampaign,
  OcsApiError,
  OcsConnectionError,
  OcsNotFoundError,
  replaceSenders,
  updateCampaign,
} from '../src/index.ts';
import { clientOf, json, startServer } from './helpers/http.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const lead_id = '5b8d1e3f-7a2c-4d6e-9f1b-3c5a7e9d2b40';
const error = (code: string) => ({ success: false, error: code, message: `${code} happened.`, request_id: 'req_1' });
const campaign = { success: true, campaign: { id: campaign_id, name: 'Q4' } };

type Answer = (response: ServerResponse) => void;
/** Answers `first` to the first request, then `then` to every other one. */
const firstThen = (first: Answer, then: Answer) =>
  startServer((_request, response, index) => (index === 0 ? first(response) : then(response)));
const ok: Answer = (response) => json(response, 200, campaign);

// Backoff with full jitter is random in [0, cap): pin it to 0 so that tests do not wait.
beforeEach(() => void vi.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => void vi.restoreAllMocks());

describe('statuses', () => {
  it.each([
    [408, 'REQUEST_TIMEOUT'],
    [409, 'IDEMPOTENCY_IN_PROGRESS'],
    [429, 'RATE_LIMITED'],
    [500, 'INTERNAL_ERROR'],
    [502, 'BAD_GATEWAY'],
    [503, 'UPSTREAM_TIMEOUT'],
    [504, 'GATEWAY_TIMEOUT'],
  ])('retries %i %s on a GET', async (status, code) => {
    const server = await firstThen((response) => json(response, status, error(code)), ok);
    const result = await getCampaign(clientOf(server), { campaign_id });
    expect(result.campaign.id).toBe(campaign_id);
    expect(server.received).toHaveLength(2);
  });

  it.each([
    [400, 'VALIDATION_ERROR'],
    [401, 'UNAUTHORIZED'],
    [403, 'INSUFFICIENT_SCOPE'],
    [404, 'CAMPAIGN_NOT_FOUND'],
    [409, 'IDEMPOTENCY_KEY_REUSED'],
    [500, 'ORG_HAS_NO_MEMBERS'],
  ])('never retries %i %s', async (status, code) => {
    const server = await firstThen((response) => json(response, status, error(code)), ok);
    const failure = await getCampaign(clientOf(server), { campaign_id }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OcsApiError);
    expect(failure).toMatchObject({ status, code, attempts: 1 });
    expect(server.received).toHaveLength(1);
  });
});

describe('requests', () => {
  const unavailable: Answer = (response) => json(response, 503, error('UPSTREAM_TIMEOUT'));
  const dropped: Answer = (response) => response.socket?.destroy();

  it.each([
    ['PUT', (client: ReturnType<typeof clientOf>) => replaceSenders(client, { campaign_id, account_ids: ['acc_1'] })],
    ['DELETE', (client: ReturnType<typeof clientOf>) => deleteLead(client, { lead_id })],
  ])('retries a %s after a 503 and after a dropped connection', async (_method, call) => {
    for (const first of [unavailable, dropped]) {
      const server = await firstThen(first, (response) => json(response, 200, { success: true }));
      await call(clientOf(server));
      expect(server.received).toHaveLength(2);
    }
  });

  it('retries a POST that declares Idempotency-Key, with one generated key on every attempt', async () => {
    const server = await firstThen(dropped, (response) =>
      json(response, 201, { success: true, campaign_id, campaign: null, message: 'created' }),
    );
    const result = await createCampaign(clientOf(server), { name: 'Q4' });
    const keys = server.received.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(result.idempotencyKey).toBe(keys[0]);
  });

  it('createLead (POST /leads, which declares Idempotency-Key) is retried with its generated key', async () => {
    const server = await firstThen(dropped, (response) =>
      json(response, 201, {
        success: true,
        message: 'created',
        created: true,
        lead: { id: 'l1' },
        sequence_lead_id: null,
      }),
    );
    const result = await createLead(clientOf(server), { email: 'maya.patel@acmerobotics.com' });
    const keys = server.received.map((request) => request.headers['idempotency-key']);
    expect(keys).toEqual([result.idempotencyKey, result.idempotencyKey]);
  });

  it('never retries a PATCH or a POST without Idempotency-Key', async () => {
    for (const call of [
      (client: ReturnType<typeof clientOf>) => updateCampaign(client, { campaign_id, is_active: true }),
      (client: ReturnType<typeof clientOf>) => createAccountConnectLink(client, { platform: 'email' }),
    ]) {
      const server = await firstThen(unavailable, ok);
      await expect(call(clientOf(server))).rejects.toMatchObject({ status: 503, attempts: 1 });
      const droppedServer = await firstThen(dropped, ok);
      await expect(call(clientOf(droppedServer))).rejects.toBeInstanceOf(OcsConnectionError);
      expect(droppedServer.received).toHaveLength(1);
    }
  });

  it('an answer cut off mid-body is a lost connection: retried on a GET, OcsConnectionError on a POST without a key', async () => {
    // The status and headers arrive, then half the body, then the connection closes.
    const cutOff: Answer = (response) => {
      const body = JSON.stringify(campaign);
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) });
      response.write(body.slice(0, 20), () => response.socket?.destroy());
    };
    const server = await firstThen(cutOff, ok);
    const result = await getCampaign(clientOf(server), { campaign_id });
    expect(result.campaign.id).toBe(campaign_id);
    expect(server.received).toHaveLength(2);

    const once = await firstThen(cutOff, ok);
    const failure = await createAccountConnectLink(clientOf(once), { platform: 'email' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OcsConnectionError);
    expect((failure as Error).message).toMatch(/failed 1x: the answer was cut off: /);
    expect(once.received).toHaveLength(1);
  });

  it('a retried DELETE answered 404 throws OcsNotFoundError with attempts > 1', async () => {
    // The first attempt deletes the lead, but its answer is lost with the connection.
    const server = await firstThen(dropped, (response) => json(response, 404, error('LEAD_NOT_FOUND')));
    const failure = await deleteLead(clientOf(server), { lead_id }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(OcsNotFoundError);
    expect(failure).toMatchObject({ code: 'LEAD_NOT_FOUND', attempts: 2 });
    // A first-time 404 says 1: the lead was not there.
    const never = await firstThen((response) => json(response, 404, error('LEAD_NOT_FOUND')), ok);
    await expect(deleteLead(clientOf(never), { lead_id })).rejects.toMatchObject({ attempts: 1 });
  });
});

describe('waits and budgets', () => {
  it('waits a Retry-After given as an HTTP date', async () => {
    const server = await firstThen(
      (response) =>
        json(response, 429, error('RATE_LIMITED'), { 'Retry-After': new Date(Date.now() + 2_000).toUTCString() }),
      ok,
    );
    const started = Date.now();
    await getCampaign(clientOf(server), { campaign_id });
    // The date has a one-second resolution: at least one second is left of the two.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.received).toHaveLength(2);
  });

  it('fails at once when the HTTP date is further than maxRetryAfterMs, with retryAfter in seconds', async () => {
    const server = await firstThen(
      (response) =>
        json(response, 503, error('UPSTREAM_TIMEOUT'), { 'Retry-After': new Date(Date.now() + 120_000).toUTCString() }),
      ok,
    );
    const failure = await getCampaign(clientOf(server, { maxRetryAfterMs: 10_000 }), { campaign_id }).catch(
      (e: unknown) => e,
    );
    expect((failure as OcsApiError).retryAfter).toBeGreaterThan(100);
    expect((failure as OcsApiError).retryAfter).toBeLessThanOrEqual(120);
    expect(server.received).toHaveLength(1);
  });

  it('maxRetries per client, and per call over it', async () => {
    const server = await startServer((_request, response) => json(response, 502, error('BAD_GATEWAY')));
    const client = clientOf(server, { maxRetries: 4 });
    await expect(getCampaign(client, { campaign_id })).rejects.toMatchObject({ status: 502, attempts: 5 });
    await expect(getCampaign(client, { campaign_id }, { maxRetries: 1 })).rejects.toMatchObject({ attempts: 2 });
    await expect(getCampaign(client, { campaign_id }, { maxRetries: 0 })).rejects.toMatchObject({ attempts: 1 });
    expect(server.received).toHaveLength(8);
  });

  it('the path API retries the same answers for a GET', async () => {
    const server = await firstThen((response) => json(response, 504, error('GATEWAY_TIMEOUT')), ok);
    const { data } = await clientOf(server).GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } });
    expect(data?.campaign.id).toBe(campaign_id);
    expect(server.received).toHaveLength(2);
  });
});
