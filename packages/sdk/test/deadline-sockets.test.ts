/**
 * A deadline frees what it started: against a real node:http server that never answers
 * (or stops in the middle of a body), the calls time out and every socket they opened is
 * closed, for the named operations, the path API and a page of an iterator.
 */
import { describe, expect, it, vi } from 'vitest';
import { getCampaign, listLeads, OcsAbortError, OcsNotFoundError, OcsTimeoutError, paginate } from '../src/index.ts';
import { clientOf, startServer } from './helpers/http.ts';

const campaign_id = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
const neverAnswers = () => startServer(() => {});
// Long enough for all 20 requests to reach the server on a loaded machine before the
// deadline (at 300 ms one in a run did not, and the count of 20 failed); what is tested is
// that every socket they opened closes after it.
const manyCallsTimeoutMs = 1_000;

/** Waits until the server has no open socket left (fails the test if one stays open). */
const allClosed = (server: { openSockets(): number }) =>
  vi.waitFor(() => expect(server.openSockets()).toBe(0), { timeout: 5_000, interval: 20 });

describe('timeoutMs aborts the request', () => {
  it('20 named calls that never get an answer: all time out, and all 20 sockets close', async () => {
    const server = await neverAnswers();
    const client = clientOf(server, { timeoutMs: manyCallsTimeoutMs });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => getCampaign(client, { campaign_id })));
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(OcsTimeoutError);
    }
    expect(server.sockets.size).toBe(20);
    await allClosed(server);
  });

  it('the path API: 20 calls time out and their sockets close', async () => {
    const server = await neverAnswers();
    const client = clientOf(server, { timeoutMs: manyCallsTimeoutMs });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => client.GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } })),
    );
    for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(OcsTimeoutError);
    expect(server.sockets.size).toBe(20);
    await allClosed(server);
  });

  it('a body that stops half-way: the read is aborted and the socket closes', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"success":true,"campaign":');
    });
    const error = await getCampaign(clientOf(server), { campaign_id }, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsTimeoutError);
    await allClosed(server);
  });

  it('the path API: a body that stops half-way times out, and the socket closes', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"success":true,"campaign":');
    });
    const client = clientOf(server, { timeoutMs: 300 });
    for (const parseAs of ['json', 'text', 'arrayBuffer'] as const) {
      const error = await client
        .GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } }, parseAs })
        .catch((e: unknown) => e);
      expect(error, parseAs).toBeInstanceOf(OcsTimeoutError);
    }
    await allClosed(server);
  });

  it('the path API: an error answer whose body stops half-way times out too', async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(404, { 'Content-Type': 'application/json' });
      response.write('{"success":false,');
    });
    const error = await clientOf(server, { timeoutMs: 300 })
      .GET('/campaigns/{campaign_id}', { params: { path: { campaign_id } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsTimeoutError);
    await allClosed(server);
  });

  it("a named call through middlewares keeps its own timeoutMs, not the client's", async () => {
    const server = await startServer((_request, response) => {
      setTimeout(() => {
        response.writeHead(404, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'No such campaign.' }));
      }, 400);
    });
    const client = clientOf(server, { timeoutMs: 150, maxRetries: 0 });
    client.use({ onRequest: () => undefined });
    // The client's 150 ms has passed when the answer comes; the call's 5 s has not.
    const error = await getCampaign(client, { campaign_id }, { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsNotFoundError);
  });

  it('a page of an iterator that never comes: the page fetch times out and its socket closes', async () => {
    const server = await startServer((request, response) => {
      // The first page answers; the second never does.
      if (!request.url.includes('offset=0')) return;
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          success: true,
          leads: [{ id: 'a' }],
          count: 1,
          total: 2,
          limit: 1,
          offset: 0,
          has_more: true,
        }),
      );
    });
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const lead of paginate(clientOf(server), listLeads, {}, { pageSize: 1, timeoutMs: 300 }))
        seen.push(lead);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ id: 'a' }]);
    expect(error).toBeInstanceOf(OcsTimeoutError);
    expect(server.received).toHaveLength(2);
    // The second page's connection closes; the first page's stays in the keep-alive pool.
    const second = server.received[1]?.socket;
    if (!second) throw new Error('no second page request');
    await vi.waitFor(() => expect(server.isOpen(second)).toBe(false), { timeout: 5_000, interval: 20 });
  });

  it("the caller's AbortSignal tears the request down too", async () => {
    const server = await neverAnswers();
    const controller = new AbortController();
    const pending = getCampaign(clientOf(server), { campaign_id }, { signal: controller.signal });
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    controller.abort(new Error('user left'));
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcsAbortError);
    expect((error as OcsAbortError).cause).toEqual(new Error('user left'));
    await allClosed(server);
  });
});
