/**
 * `ocs listen` and `ocs trigger` against the standalone mock (the built `ocs-mock` bin, with
 * loopback receivers allowed), as real processes, with a receiver process that verifies each
 * delivery with @ocs/sdk/webhooks; Ctrl-C during `trigger` (held mid-request by a gate in
 * front of the mock); and how `ocs` fails in every command path: a malformed key is a usage
 * mistake (exit code 2), a refused key or an unreachable server a failure (exit code 1),
 * each one line saying what to do, never an internal error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createCampaign,
  createClient,
  listAccounts,
  listCampaigns,
  listLeads,
  listSandboxDeliveries,
  listWebhooks,
  type OcsClient,
} from '@ocs/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gate, startGate } from './support/gate.ts';
import {
  type LocalServer,
  ocsBin,
  receiverScript,
  requireBuilds,
  run,
  startStandaloneMock,
  stopAll,
  watch,
  type Watched,
} from './support/local-processes.ts';
import { expectDeliveryTime } from './support/ocs-lines.ts';

let mock: LocalServer;
let client: OcsClient;
let connection: string[];
const scratch = mkdtempSync(join(tmpdir(), 'ocs-against-mock-'));

beforeAll(async () => {
  requireBuilds();
  mock = await startStandaloneMock();
  client = createClient({ baseUrl: mock.url, apiKey: mock.apiKey });
  connection = ['--base-url', mock.url, '--api-key', mock.apiKey];
}, 120_000);

afterAll(async () => {
  stopAll();
  await mock?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const linesOf = (text: string) => text.trimEnd().split('\n');

describe('ocs listen + ocs trigger against ocs-mock', () => {
  let receiver: Watched;
  let receiverUrl: string;
  const secretFile = join(scratch, 'secret');

  beforeAll(async () => {
    writeFileSync(secretFile, 'not-yet');
    receiver = watch(receiverScript, [], { OCS_WEBHOOK_SECRET_FILE: secretFile });
    const [, url] = await receiver.waitFor(/listening (\S+)/);
    receiverUrl = `${url}/webhooks`;
  });

  it('forwards a neutral reply, signed, with a line timed when the receiver answered; Ctrl-C gives the slots back', async () => {
    const listen = watch(ocsBin, ['listen', '--forward-to', receiverUrl, ...connection]);
    const [, secret = ''] = await listen.waitFor(/Signing secret[^:]*: (whsec_[0-9a-f]+)/);
    writeFileSync(secretFile, secret);
    expect(listen.stdout()).toMatch(/^Ready: forwarding prospect_response events of every campaign \(\d+ now/m);

    const triggeredAt = Date.now();
    const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--sentiment', 'neutral', ...connection]);
    expect(triggered.stderr).toBe('');
    expect(triggered.code).toBe(0);
    expect(triggered.stdout).toMatch(
      /^Triggered prospect_response: neutral reply on email from trigger-\S+ \(lead \S+\) in campaign "ocs trigger" \(\S+\); delivery \S+ delivered \(HTTP 200, \d+ ms\)\.\n$/,
    );

    const [record = ''] = await receiver.waitFor(/^\{.*"verified":true.*\}$/m);
    expect(JSON.parse(record)).toMatchObject({
      verified: true,
      path: '/webhooks',
      event: 'prospect_response',
      channel: 'email',
      sentiment: 'neutral',
      attempt: '1',
    });
    const [line = ''] = await listen.waitFor(
      /^\S+ {2}prospect_response {2}lead trigger-\S+@ocs-trigger\.example \(sequence lead \S+\) {2}-> 200 {2}\d+ ms$/m,
    );
    expectDeliveryTime(line, triggeredAt);

    const { campaigns } = await listCampaigns(client, {});
    const campaign = campaigns.find((c) => c.name === 'ocs trigger');
    if (!campaign) throw new Error('trigger made no campaign');
    expect((await listWebhooks(client, { campaign_id: campaign.id })).webhooks.filter((w) => w.enabled)).toEqual([
      expect.objectContaining({ webhook_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/ocs-listen\//) }),
    ]);

    expect(await listen.stop('SIGINT')).toBe(0);
    expect(listen.stdout()).toContain('Stopped; webhook slots given back.');
    expect((await listWebhooks(client, { campaign_id: campaign.id })).webhooks.filter((w) => w.enabled)).toEqual([]);

    // Run again, twice: the relay webhook is reused, so the campaign still has one.
    const relays = async () =>
      (await listWebhooks(client, { campaign_id: campaign.id })).webhooks.filter((w) =>
        w.webhook_url.includes('/ocs-listen/'),
      );
    const [first] = await relays();
    for (let round = 0; round < 2; round++) {
      const again = watch(ocsBin, ['listen', '--forward-to', receiverUrl, '--campaign', campaign.id, ...connection]);
      await again.waitFor(/Signing secret/);
      expect(await relays()).toEqual([expect.objectContaining({ webhook_id: first?.webhook_id, enabled: true })]);
      expect(await again.stop('SIGINT')).toBe(0);
    }
    expect(await relays()).toEqual([expect.objectContaining({ webhook_id: first?.webhook_id, enabled: false })]);
  }, 120_000);
});

/** `ocs trigger prospect_response` through a gate that will hold one of its requests. */
const triggerThrough = (gate: Gate, apiKey: string) =>
  watch(ocsBin, ['trigger', 'prospect_response', '--base-url', gate.url, '--api-key', apiKey]);

describe('Ctrl-C during ocs trigger', () => {
  it('finishes the step under way, stops, and says what it did: a campaign is never left without its senders', async () => {
    // A mock of its own: no "ocs trigger" campaign yet, so trigger creates one.
    const fresh = await startStandaloneMock();
    const gate = await startGate(
      fresh.url,
      (request) => request.method === 'PUT' && /^\/v1\/campaigns\/[^/]+\/senders$/.test(request.url ?? ''),
    );
    const freshClient = createClient({ baseUrl: fresh.url, apiKey: fresh.apiKey });
    try {
      const trigger = triggerThrough(gate, fresh.apiKey);
      // The campaign is made; its senders are being set when Ctrl-C comes.
      await gate.reached;
      trigger.child.kill('SIGINT');
      await trigger.waitFor(/^ocs: stopping once the step under way is done\.$/m);
      gate.open();
      expect(await trigger.exited).toBe(130);
      expect(trigger.stdout()).toBe('');
      const [notice, line, ...more] = linesOf(trigger.stderr());
      expect(notice).toBe('ocs: stopping once the step under way is done.');
      expect(more).toEqual([]);
      const id =
        /^ocs: interrupted: no reply was simulated, so no prospect_response was sent\. Done before stopping: created the "ocs trigger" campaign \((\S+)\) with its senders\.$/.exec(
          line ?? '',
        )?.[1];
      expect(id, trigger.stderr()).toBeDefined();

      // What is left is whole: the campaign with its two senders, and nothing after it.
      const { campaigns } = await listCampaigns(freshClient, {});
      expect(campaigns.filter((c) => c.name === 'ocs trigger')).toEqual([
        expect.objectContaining({ id, is_active: false }),
      ]);
      const { accounts } = await listAccounts(freshClient, {});
      expect(
        accounts
          .filter((a) => a.campaign_ids?.includes(id ?? ''))
          .map((a) => a.platform)
          .sort(),
      ).toEqual(['email', 'linkedin']);
      expect((await listLeads(freshClient, { campaign_id: id })).leads).toEqual([]);

      // Run again, Ctrl-C twice while the sandbox clock is being moved: the second one does
      // not cut the step short; the lead and the clock are said, and no reply is made.
      const clockGate = await startGate(
        fresh.url,
        (request) => request.method === 'POST' && request.url === '/v1/sandbox/clock/advance',
      );
      try {
        const again = triggerThrough(clockGate, fresh.apiKey);
        await clockGate.reached;
        again.child.kill('SIGINT');
        await again.waitFor(/stopping once the step under way is done/);
        again.child.kill('SIGINT');
        await again.waitFor(/still finishing the step under way/);
        clockGate.open();
        expect(await again.exited).toBe(130);
        expect(linesOf(again.stderr())).toEqual([
          'ocs: stopping once the step under way is done.',
          'ocs: still finishing the step under way; a moment.',
          expect.stringMatching(
            new RegExp(
              `^ocs: interrupted: no reply was simulated, so no prospect_response was sent\\. Done before stopping: created lead trigger-\\S+@ocs-trigger\\.example \\(\\S+\\) in campaign ${id}; activated campaign ${id}; moved the sandbox clock 1 s\\.$`,
            ),
          ),
        ]);
        expect((await listSandboxDeliveries(freshClient, { campaign_id: id ?? '' })).deliveries).toEqual([]);
      } finally {
        await clockGate.close();
      }
    } finally {
      await gate.close();
      await fresh.close();
    }
  }, 120_000);
});

describe('how ocs fails, in every command path', () => {
  /** Each way in: listen over every campaign or named ones, trigger with its campaign or with one named. */
  const paths = (campaignId: string): Array<{ args: string[]; operation: string }> => [
    { args: ['listen', '--forward-to', 'http://127.0.0.1:9/hooks'], operation: 'listCampaigns' },
    {
      args: ['listen', '--forward-to', 'http://127.0.0.1:9/hooks', '--campaign', campaignId],
      operation: 'listWebhooks',
    },
    { args: ['trigger', 'prospect_response'], operation: 'listCampaigns' },
    { args: ['trigger', 'prospect_response', '--campaign', campaignId], operation: 'getCampaign' },
  ];
  let campaignId: string;

  beforeAll(async () => {
    const created = await createCampaign(client, { name: 'For the failure paths' });
    campaignId = created.campaign_id ?? '';
  });

  it('a malformed key: a usage mistake, exit code 2, from a flag or from OCS_API_KEY', async () => {
    for (const { args } of paths(campaignId)) {
      for (const [extra, env] of [
        [['--api-key', 'not a key'], {}],
        [[], { OCS_API_KEY: 'Bearer ocs_abc' }],
      ] as const) {
        const result = await run(ocsBin, [...args, '--base-url', mock.url, ...extra], env);
        const what = `${args.join(' ')} ${extra.join(' ')}`;
        expect(result.code, what).toBe(2);
        expect(linesOf(result.stderr), what).toEqual([
          expect.stringMatching(
            /^ocs: the API key is malformed \(.+\): pass the key the server printed with --api-key or OCS_API_KEY\. Run ocs --help for usage\.$/,
          ),
        ]);
      }
    }
  }, 60_000);

  it('a key the server refuses (401): exit code 1, naming the operation and what to do', async () => {
    const wrongKey = `ocs_${'x'.repeat(40)}`;
    for (const { args, operation } of paths(campaignId)) {
      const result = await run(ocsBin, [...args, '--base-url', mock.url, '--api-key', wrongKey]);
      expect(result.code, args.join(' ')).toBe(1);
      expect(linesOf(result.stderr), args.join(' ')).toEqual([
        `ocs: ${mock.url} refused the API key (${operation} answered 401 UNAUTHORIZED): pass one of its keys with --api-key or OCS_API_KEY.`,
      ]);
    }
  }, 60_000);

  it('an unreachable server: exit code 1, saying to start it or set the base URL', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = `http://127.0.0.1:${port}`;
    for (const { args, operation } of paths(campaignId)) {
      const result = await run(ocsBin, [...args, '--base-url', nowhere, '--api-key', mock.apiKey]);
      expect(result.code, args.join(' ')).toBe(1);
      expect(linesOf(result.stderr), args.join(' ')).toEqual([
        `ocs: cannot reach ${nowhere} (${operation}): is the server running? Set --base-url or OCS_BASE_URL.`,
      ]);
    }
  }, 60_000);
});
