/**
 * `ocs trigger`'s own decisions, with the SDK's operations replaced by recorders (the end-to-end
 * runs are ocs-against-mock and ocs-listen): the "ocs trigger" campaign left without senders by
 * an earlier run that failed between its two steps gets them, and the reply is given the
 * receiver's whole deadline, since @ocs/mock answers it once the delivery was attempted.
 */
import type * as Sdk from '@ocs/sdk';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { receiverDeadlineMs } from '../src/cli/receiver-deadline.ts';
import { callTimeoutMs } from '../src/cli/connection.ts';

const sdk = vi.hoisted(() => ({
  calls: [] as Array<{ operation: string; params: unknown; options: unknown }>,
  campaigns: [] as unknown[],
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
        delivery: { delivery_id: 'd-1', status: 'delivered' },
        not_delivered_reason: null,
      },
    })),
  };
});

const { trigger } = await import('../src/cli/trigger.ts');

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
