/**
 * `ocs trigger`'s own decisions, with the SDK's operations replaced by recorders (the end-to-end
 * runs are ocs-against-mock and ocs-listen): the "ocs trigger" campaign left without senders by
 * an earlier run that failed between its two steps gets them, and the reply is given the
 * receiver's whole deadline, since @ocs/mock answers it once the delivery was attempted; the
 * delivery's outcome is read from the tail of the campaign's deliveries, not from the reply's
 * answer, which says how it was when queued, in a page that still holds it when replies made
 * meanwhile move it, and not at the cost of the API key's rate limit.
 */
import type * as Sdk from '@ocs/sdk';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { receiverDeadlineMs } from '../src/cli/receiver-deadline.ts';
import { callTimeoutMs } from '../src/cli/connection.ts';

const sdk = vi.hoisted(() => ({
  calls: [] as Array<{ operation: string; params: unknown; options: unknown }>,
  campaigns: [] as unknown[],
  /** The delivery's status in simulateReply's answer. */
  replyStatus: 'delivered',
  /** How many deliveries the campaign has, the last being the reply's. */
  deliveries: 1,
  /** The reads of the deliveries after which the first attempt is recorded. */
  attemptedAfter: 0,
  /** Deliveries committed after the first read with an earlier created_at: listed before the reply's. */
  committedBefore: 0,
  /** The key's requests left to the endpoint before the first read (RateLimit-Remaining), if said. */
  remaining: undefined as number | undefined,
  /** Whether the reads are answered 429. */
  rateLimited: false,
}));

vi.mock('@ocs/sdk', async (original) => {
  const actual = await original<typeof Sdk>();
  const record =
    (operation: string, answer: (params: Record<string, unknown>) => unknown) =>
    async (_client: unknown, params: Record<string, unknown>, options?: unknown) => {
      sdk.calls.push({ operation, params, options });
      return answer(params);
    };
  const listCampaigns = record('listCampaigns', () => ({}));
  const listAccounts = record('listAccounts', () => ({}));
  const accounts = [
    { id: 'acc_em_busy', platform: 'email', status: 'connected', campaign_ids: ['c1', 'c2'] },
    { id: 'acc_em_free', platform: 'email', status: 'connected', campaign_ids: [] },
    { id: 'acc_li_gone', platform: 'linkedin', status: 'disconnected', campaign_ids: [] },
    { id: 'acc_li_ok', platform: 'linkedin', status: 'connected', campaign_ids: ['c1'] },
  ];
  return {
    ...actual,
    paginate: (_client: unknown, operation: unknown) => ({
      toArray: async () => (operation === listCampaigns ? sdk.campaigns : accounts),
    }),
    listCampaigns,
    listAccounts,
    replaceSenders: record('replaceSenders', () => ({ success: true })),
    createLead: record('createLead', (params) => ({ lead: { id: 'lead-1', email: params.email } })),
    updateCampaign: record('updateCampaign', () => ({ success: true })),
    advanceSandboxClock: record('advanceSandboxClock', () => ({ success: true })),
    listSandboxMessages: record('listSandboxMessages', () => ({ messages: [{ channel: 'email' }] })),
    listWebhooks: record('listWebhooks', () => ({ webhooks: [{ enabled: true }] })),
    simulateReply: record('simulateReply', () => ({
      reply: {
        sentiment: 'positive',
        delivery: { delivery_id: 'd-1', status: sdk.replyStatus },
        not_delivered_reason: null,
      },
    })),
    listSandboxDeliveries: record('listSandboxDeliveries', (params) => {
      const reads = sdk.calls.filter((call) => call.operation === 'listSandboxDeliveries').length;
      const rateLimit = {
        limit: 100,
        remaining: sdk.remaining === undefined ? undefined : sdk.remaining - reads,
        reset: 42,
        retryAfter: undefined,
      };
      if (sdk.rateLimited) {
        const body = { success: false, error: 'RATE_LIMITED', message: 'Rate limit of 100 requests exceeded.' };
        throw new actual.OcsRateLimitError(
          new Response(JSON.stringify(body), { status: 429, headers: { 'retry-after': '42' } }),
          body,
        );
      }
      const attempted = reads > sdk.attemptedAfter;
      const count = sdk.deliveries + (reads > 1 ? sdk.committedBefore : 0);
      const all = Array.from({ length: count }, (_, i) => ({
        delivery_id: i === count - 1 ? 'd-1' : `d-old-${i}`,
        status: attempted ? 'delivered' : 'pending',
        attempts_made: attempted ? 1 : 0,
        next_attempt_at: null,
        attempts: attempted ? [{ attempt: 1, ok: true, status: 204, duration_ms: 3, error: null }] : [],
      }));
      const offset = Number(params.offset ?? 0);
      const limit = Number(params.limit ?? 100);
      return { total: all.length, deliveries: all.slice(offset, offset + limit), rateLimit };
    }),
  };
});

const { describeOutcome, trigger } = await import('../src/cli/trigger.ts');

const printed: string[] = [];
const io = { out: (line: string) => printed.push(line), version: '0.0.0' };
const argv = ['prospect_response', '--base-url', 'http://127.0.0.1:9', '--api-key', 'ocs_test_key'];
const called = (operation: string) => sdk.calls.filter((call) => call.operation === operation);

beforeEach(() => {
  sdk.calls.length = 0;
  printed.length = 0;
});

afterEach(() => {
  sdk.campaigns = [];
  sdk.replyStatus = 'delivered';
  sdk.deliveries = 1;
  sdk.attemptedAfter = 0;
  sdk.committedBefore = 0;
  sdk.remaining = undefined;
  sdk.rateLimited = false;
});

it('gives the "ocs trigger" campaign its senders when an earlier run left it without', async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: false, enabled_accounts: [] }];
  await trigger(argv, io);
  expect(called('replaceSenders').map((call) => call.params)).toEqual([
    { campaign_id: 'camp-1', account_ids: ['acc_em_free', 'acc_li_ok'] },
  ]);
  expect(printed.join('\n')).toMatch(/^Triggered prospect_response/);
});

it('leaves the senders of an "ocs trigger" campaign that has them', async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  await trigger(argv, io);
  expect(called('replaceSenders')).toEqual([]);
  expect(called('listAccounts')).toEqual([]);
});

it('waits for the reply as long as the receiver may take, and a call besides', async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  await trigger(argv, io);
  const [reply] = called('simulateReply');
  expect(reply?.options).toEqual({ timeoutMs: callTimeoutMs + receiverDeadlineMs });
  expect(callTimeoutMs + receiverDeadlineMs).toBeGreaterThan(75_000);
});

it("says how the first attempt went, read from the tail of the campaign's deliveries once recorded", async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  // simulateReply answers the delivery as queued; the attempt is recorded a moment later.
  sdk.replyStatus = 'pending';
  sdk.deliveries = 750;
  sdk.attemptedAfter = 3;
  await trigger(argv, io);
  expect(printed).toEqual([expect.stringMatching(/; delivery d-1 delivered \(HTTP 204, 3 ms\)\.$/)]);
  const reads = called('listSandboxDeliveries').map((call) => call.params);
  // The total first, then a page of the API's largest size (500) around the tail until the attempt shows.
  expect(reads).toEqual([
    { campaign_id: 'camp-1', limit: 1 },
    ...Array.from({ length: 3 }, () => ({ campaign_id: 'camp-1', offset: 500, limit: 500 })),
  ]);
  // Each read within the wait (10 s), not the client's 30 s.
  for (const { options } of called('listSandboxDeliveries')) {
    expect((options as { timeoutMs: number }).timeoutMs).toBeLessThanOrEqual(10_000);
  }
});

it('finds the delivery when replies committed meanwhile with an earlier created_at move it past the old tail', async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  sdk.replyStatus = 'pending';
  sdk.deliveries = 750;
  sdk.committedBefore = 3;
  await trigger(argv, io);
  expect(printed).toEqual([expect.stringMatching(/; delivery d-1 delivered \(HTTP 204, 3 ms\)\.$/)]);
});

it("stops reading when the API key's requests left to the endpoint run low, and says so", async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  sdk.replyStatus = 'pending';
  sdk.attemptedAfter = Number.POSITIVE_INFINITY;
  // 26 left after the total's read, 25 after the first page's, 24 (under a quarter of 100) after the next.
  sdk.remaining = 27;
  await trigger(argv, io);
  expect(called('listSandboxDeliveries')).toHaveLength(3);
  expect(printed).toEqual([
    expect.stringMatching(
      /; delivery d-1 pending: not attempted by the server yet \(ocs listen prints it when it comes\); stopped reading early, to leave the API key's rate limit to you \(24 requests left to that endpoint for now\)\.$/,
    ),
  ]);
});

it('says plainly that the reads were rate-limited (a 429), not the raw answer', async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  sdk.replyStatus = 'pending';
  sdk.rateLimited = true;
  await trigger(argv, io);
  expect(printed).toEqual([
    expect.stringMatching(
      /; delivery d-1 pending \(how its first attempt went could not be read: rate-limited for 42 s more; ocs listen prints it when it comes\)\.$/,
    ),
  ]);
});

it('tells a delivery the server has not attempted yet from one whose receiver has not answered', () => {
  const pending = { status: 'pending' as const, next_attempt_at: null, attempts: [] };
  expect(describeOutcome({ delivery: { ...pending, attempts_made: 0 } })).toBe(
    'pending: not attempted by the server within 10 s (ocs listen prints it when it comes)',
  );
  expect(describeOutcome({ delivery: { ...pending, attempts_made: 1 } })).toBe(
    'pending: no answer within 10 s from the receiver (ocs listen prints it when it comes)',
  );
  expect(describeOutcome({ delivery: { ...pending, attempts_made: 1 }, ended: { by: 'ctrl-c' } })).toBe(
    'pending: no answer yet from the receiver (ocs listen prints it when it comes)',
  );
});

it('takes an outcome the reply already says as it is', async () => {
  sdk.campaigns = [{ id: 'camp-1', name: 'ocs trigger', is_active: true, enabled_accounts: ['acc_em_x', 'acc_li_y'] }];
  await trigger(argv, io);
  expect(printed).toEqual([expect.stringMatching(/; delivery d-1 delivered\.$/)]);
  expect(called('listSandboxDeliveries')).toEqual([]);
});
