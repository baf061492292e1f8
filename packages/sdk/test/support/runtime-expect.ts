/**
 * What the runtime checks must have observed, asserted against what the scripted API
 * recorded (support/runtime-api.ts): the same assertions for every runtime, with what
 * differs (how the runtime names itself, which verifier build it gets, CORS for a page)
 * given by the runtime's `RuntimeExpectation`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { RuntimeCheckInput, RuntimeCheckLine, RuntimeIdentity } from '../runtimes/types.ts';
import { type Answered, retryAfterSeconds, type RuntimeApi } from './runtime-api.ts';
import { leadIds } from './runtime-input.ts';
import { packageDir } from './runtime-run.ts';

const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };

export interface RuntimeExpectation {
  /** What the runtime must say it is (a partial match of its `RuntimeIdentity`). */
  identity: Partial<Record<keyof RuntimeIdentity, unknown>>;
  /** The runtime `X-OCS-Client` names, with its version from the identity; `web` for none. */
  clientRuntime: 'node' | 'deno' | 'bun' | 'web';
  /** The verifier builds checked, by label, and the URL each must have been loaded from. */
  webhookEntries: Record<string, RegExp | undefined>;
  /** The page's origin, for a browser: each request carries it and CORS preflights came. */
  origin?: string;
}

/** The verifier builds of dist/, as loaded by URL. */
export const nodeBuild = /\/packages\/sdk\/dist\/webhooks\/node\.js$/;
export const webBuild = /\/packages\/sdk\/dist\/webhooks\/web\.js$/;

const clientChecks = ['runtime', 'call', 'retried 429', 'paging', 'typed error', 'deadline'];

/** Every check ran, none threw, and each saw what the scripted API did. */
export function expectRuntimeChecks(
  lines: RuntimeCheckLine[],
  api: RuntimeApi,
  input: RuntimeCheckInput,
  expectation: RuntimeExpectation,
): void {
  const labels = Object.keys(expectation.webhookEntries).map((label) => `webhooks: ${label}`);
  expect(lines.map((line) => line.check)).toEqual([...clientChecks, ...labels, 'done']);
  expect(lines.filter((line) => line.error !== undefined)).toEqual([]);
  const observed = (check: string) => lines.find((line) => line.check === check)?.observed ?? {};

  const identity = observed('runtime') as unknown as RuntimeIdentity;
  expect(identity).toMatchObject(expectation.identity);
  expectHeaders(api, input, expectation, identity);
  expectCall(observed('call'), api, input);
  expectRetried429(observed('retried 429'), api, input);
  expectPaging(observed('paging'), api, input);
  expectTypedError(observed('typed error'), api, input);
  expectDeadline(observed('deadline'), api, input);
  for (const [label, url] of Object.entries(expectation.webhookEntries)) {
    expectWebhooks(observed(`webhooks: ${label}`), input, url);
  }
}

const to = (api: RuntimeApi, method: string, path: string) =>
  api.answered.filter((a) => a.received.method === method && a.received.url.split('?')[0] === `/v1${path}`);

/** Every request carried the key, and `X-OCS-Client` naming this runtime. */
function expectHeaders(
  api: RuntimeApi,
  input: RuntimeCheckInput,
  expectation: RuntimeExpectation,
  identity: RuntimeIdentity,
) {
  const runtime = expectation.clientRuntime;
  const client = `ocs-sdk/${version} ${runtime === 'web' ? 'web' : `${runtime}/${identity[runtime]}`}`;
  for (const { received } of api.answered) {
    expect(received.headers.authorization).toBe(`Bearer ${input.apiKey}`);
    expect(received.headers['x-ocs-client']).toBe(client);
    // Where fetch lets a client set it, User-Agent says the same.
    if (runtime !== 'web') expect(received.headers['user-agent']).toBe(client);
    expect(received.headers.origin).toBe(expectation.origin);
  }
  if (expectation.origin === undefined) expect(api.preflights).toEqual([]);
  else expect(api.preflights.length).toBeGreaterThan(0);
}

function expectCall(observed: Record<string, unknown>, api: RuntimeApi, input: RuntimeCheckInput) {
  const [post, ...otherPosts] = to(api, 'POST', '/campaigns');
  expect(otherPosts).toEqual([]);
  expect(JSON.parse(post?.received.body ?? '{}')).toEqual({ name: input.campaignName });
  const id = observed.createdId as string;
  const [get, ...otherGets] = to(api, 'GET', `/campaigns/${id}`);
  expect(otherGets).toEqual([]);
  expect(observed).toEqual({
    createdStatus: 201,
    createdId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    createdName: input.campaignName,
    createdRequestId: post?.requestId,
    // The key the SDK made for the create, as the request carried it.
    idempotencyKey: post?.received.headers['idempotency-key'],
    fetchedId: id,
    fetchedName: input.campaignName,
    fetchedRequestId: get?.requestId,
  });
  expect(observed.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
}

/** The 429 was received once, and retried once after the `Retry-After` it asked for. */
function expectRetried429(observed: Record<string, unknown>, api: RuntimeApi, input: RuntimeCheckInput) {
  const attempts = to(api, 'GET', `/campaigns/${input.rateLimitedCampaignId}`);
  expect(attempts.map((a) => a.status)).toEqual([429, 200]);
  const [first, second] = attempts as [Answered, Answered];
  // A lower bound, not a speed target: a retry sooner than Retry-After ignored the header.
  expect(second.at - first.at).toBeGreaterThanOrEqual(retryAfterSeconds * 1000 - 50);
  expect(observed).toMatchObject({ status: 200, name: 'Rate limited', requestId: second.requestId });
}

/** Two walks over 8 leads in pages of 3 (items, then pages): 3 requests each, exact totals. */
function expectPaging(observed: Record<string, unknown>, api: RuntimeApi, input: RuntimeCheckInput) {
  const requests = to(api, 'GET', '/leads');
  const query = requests.map((a) => Object.fromEntries(new URL(a.received.url, 'http://api.test').searchParams));
  const walk = [0, 3, 6].map((offset) => ({
    campaign_id: input.leadsCampaignId,
    limit: String(input.pageSize),
    offset: String(offset),
  }));
  expect(query).toEqual([...walk, ...walk]);
  expect(observed.ids).toEqual(leadIds);
  expect(observed.pages).toEqual(
    [0, 3, 6].map((offset, i) => ({
      offset,
      count: Math.min(3, leadIds.length - offset),
      total: leadIds.length,
      limit: input.pageSize,
      has_more: offset + 3 < leadIds.length,
      requestId: requests[3 + i]?.requestId,
      items: leadIds.slice(offset, offset + 3),
    })),
  );
}

/** The 404 is an OcsNotFoundError narrowed by code, with the server's request ID; not retried. */
function expectTypedError(observed: Record<string, unknown>, api: RuntimeApi, input: RuntimeCheckInput) {
  const attempts = to(api, 'GET', `/campaigns/${input.missingCampaignId}`);
  expect(attempts.map((a) => a.status)).toEqual([404]);
  const requestId = attempts[0]?.requestId as string;
  expect(observed).toEqual({
    narrowed: true,
    isOcsError: true,
    isApiError: true,
    name: 'OcsNotFoundError',
    status: 404,
    code: 'CAMPAIGN_NOT_FOUND',
    requestId,
    attempts: 1,
    message: expect.stringContaining(`request ${requestId}`),
  });
}

/**
 * The call to the route that never answers rejected with OcsTimeoutError at its deadline,
 * was sent once (a socket closed early would have been retried), and its connection was
 * closed while the runtime still ran: the deadline aborted the request.
 */
function expectDeadline(observed: Record<string, unknown>, api: RuntimeApi, input: RuntimeCheckInput) {
  expect(observed).toMatchObject({ isTimeout: true, isOcsError: true, name: 'OcsTimeoutError', socketClosed: true });
  expect(observed.elapsedMs).toBeGreaterThanOrEqual(input.timeoutMs);
  // Not a speed target (the SDK's ticker fires within 50 ms): a bound far above it, for a
  // loaded machine, that still tells a deadline from a call ended by something else.
  expect(observed.elapsedMs).toBeLessThan(input.timeoutMs + 5_000);
  const attempts = to(api, 'GET', `/campaigns/${input.hangingCampaignId}`);
  expect(attempts).toHaveLength(1);
  expect(attempts[0]?.closedAt).toBeTypeOf('number');
  expect(api.probes).toHaveLength(1);
}

/** The verifier accepts the delivery signed in Node, refuses a bad signature, and rotates secrets. */
function expectWebhooks(observed: Record<string, unknown>, input: RuntimeCheckInput, url: RegExp | undefined) {
  const { idempotency_key } = JSON.parse(input.webhook.body) as { idempotency_key: string };
  expect(observed).toEqual({
    url: url ? expect.stringMatching(url) : undefined,
    sign: input.webhook.signature,
    valid: idempotency_key,
    validRequest: idempotency_key,
    wrongSignature: 'signature_mismatch',
    tamperedBody: 'signature_mismatch',
    severalSecrets: idempotency_key,
    noSecretMatches: 'signature_mismatch',
    verifySeveral: true,
    verifyNone: false,
  });
}
