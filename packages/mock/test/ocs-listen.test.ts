/**
 * `ocs listen` and `ocs trigger` end to end, as real processes (the built bins): the
 * reference server on PGlite with loopback receivers allowed, a receiver process that
 * verifies each delivery with @ocs/sdk/webhooks and the secret `listen` printed, and the
 * webhook slots checked through the API before, during and after (Ctrl-C gives them back,
 * through a server that fails for a moment too, behind a proxy that refuses, holds or never
 * answers what it is told, and a further Ctrl-C gives up on them); receivers that fail, hold
 * their answer, or are down, for what trigger and Ctrl-C say; and trigger's reads of the
 * deliveries against a server at the default rate limits.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import type { AddressInfo } from 'node:net';
import {
  advanceSandboxClock,
  createCampaign,
  createClient,
  createWebhook,
  listCampaigns,
  listSandboxDeliveries,
  listWebhooks,
  type OcsClient,
} from '@ocs/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDeliveryTime } from './support/ocs-lines.ts';
import { passOn } from './support/gate.ts';
import {
  ocsBin,
  type LocalServer,
  receiverScript,
  requireBuilds,
  run,
  startReferenceServer,
  stopAll,
  watch,
  type Watched,
} from './support/local-processes.ts';

let server: LocalServer;
let client: OcsClient;
let receiver: Watched;
let receiverUrl: string;
let secretFile: string;
let connection: string[];
const scratch = mkdtempSync(join(tmpdir(), 'ocs-listen-test-'));
const userHook = 'https://hooks.northwind-outreach.com/ocs';

beforeAll(async () => {
  requireBuilds();
  // The file runs dozens of listens within a minute on one key, each listing the campaign's
  // webhooks as it starts and stops: the server's rate limits are not what is tested here.
  server = await startReferenceServer([
    '--allow-insecure-webhooks',
    '--rate-limit-per-endpoint',
    '10000',
    '--rate-limit-total',
    '10000',
  ]);
  client = createClient({ baseUrl: server.url, apiKey: server.apiKey });
  connection = ['--base-url', server.url, '--api-key', server.apiKey];
  secretFile = join(scratch, 'secret');
  writeFileSync(secretFile, 'not-yet');
  receiver = watch(receiverScript, [], { OCS_WEBHOOK_SECRET_FILE: secretFile });
  const [, url] = await receiver.waitFor(/listening (\S+)/);
  receiverUrl = `${url}/webhooks`;
}, 120_000);

afterAll(async () => {
  stopAll();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The receiver's records so far (one JSON line per request it got). */
function received(): Array<Record<string, unknown>> {
  return receiver
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function userCampaign(name: string): Promise<{ id: string; webhookId: string }> {
  const { campaign_id: id } = await createCampaign(client, { name });
  if (!id) throw new Error('no campaign id');
  const hook = await createWebhook(client, {
    campaign_id: id,
    webhook_url: userHook,
    secret: 'users-own-secret-0123456789',
  });
  return { id, webhookId: hook.webhook_id };
}

const webhooksOf = async (campaignId: string) => (await listWebhooks(client, { campaign_id: campaignId })).webhooks;

/** The connection's options with another `--base-url` (each option is given once). */
const connectionTo = (baseUrl: string) => ['--base-url', baseUrl, ...connection.slice(connection.indexOf('--api-key'))];

async function startListen(args: string[] = []): Promise<{ listen: Watched; secret: string }> {
  // `args` may name another server (a proxy): its `--base-url` replaces the connection's.
  const at = args.indexOf('--base-url');
  const own = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
  const listen = watch(ocsBin, [
    'listen',
    '--forward-to',
    receiverUrl,
    ...(at >= 0 ? connectionTo(args[at + 1] as string) : connection),
    ...own,
  ]);
  const [, secret = ''] = await listen.waitFor(/Signing secret[^:]*: (whsec_[0-9a-f]+)/);
  writeFileSync(secretFile, secret);
  return { listen, secret };
}

describe('ocs listen + ocs trigger against the reference server', () => {
  it('forwards signed events to the receiver, leaves a held slot alone, and gives slots back on Ctrl-C', async () => {
    const user = await userCampaign('Held by the user');
    const { listen } = await startListen();
    expect(listen.stdout()).toContain(`skipped campaign ${user.id}: its webhook slot is held by ${userHook}`);

    // No --campaign: trigger creates the "ocs trigger" campaign, which listen picks up.
    const triggeredAt = Date.now();
    const first = await run(ocsBin, ['trigger', 'prospect_response', ...connection]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    // How the first attempt went, read after the reply (whose answer says `pending`, queued).
    expect(first.stdout).toMatch(
      /^Triggered prospect_response: positive reply on email .*; delivery \S+ delivered \(HTTP 200, \d+ ms\)\.\n$/,
    );
    const [line = ''] = await listen.waitFor(
      /^\S+ {2}prospect_response {2}lead trigger-\S+ \(sequence lead \S+\) {2}-> 200 {2}\d+ ms$/m,
    );
    expectDeliveryTime(line, triggeredAt);

    const campaigns = await listCampaigns(client, {});
    const triggerCampaign = campaigns.campaigns.find((c) => c.name === 'ocs trigger');
    if (!triggerCampaign) throw new Error('trigger made no campaign');
    const second = await run(ocsBin, [
      'trigger',
      'prospect_response',
      '--campaign',
      triggerCampaign.id,
      '--channel',
      'linkedin',
      '--sentiment',
      'negative',
      ...connection,
    ]);
    expect(second.code).toBe(0);
    await receiver.waitFor(/"channel":"linkedin","sentiment":"negative"/);
    // listen prints its line once the receiver's answer is back, a moment after the receiver's record.
    await listen.waitFor(/(?:-> 200 {2}\d+ ms[\s\S]*){2}/);

    // What the receiver verified itself, with the SDK and the printed secret.
    const got = received();
    expect(got).toHaveLength(2);
    expect(got.every((r) => r.verified === true && r.event === 'prospect_response' && r.path === '/webhooks')).toBe(
      true,
    );
    expect(got.map((r) => [r.channel, r.sentiment])).toEqual([
      ['email', 'positive'],
      ['linkedin', 'negative'],
    ]);
    const lines = listen
      .stdout()
      .split('\n')
      .filter((line) => line.includes('  prospect_response  '));
    expect(lines).toHaveLength(2);

    // While listening, the relay holds the trigger campaign's slot; the user's is untouched.
    const during = await webhooksOf(triggerCampaign.id);
    expect(during.filter((w) => w.enabled).map((w) => w.webhook_url)).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/ocs-listen\//),
    ]);

    expect(await listen.stop('SIGINT')).toBe(0);
    expect(listen.stdout()).toContain('Stopped; webhook slots given back.');
    expect((await webhooksOf(triggerCampaign.id)).filter((w) => w.enabled)).toEqual([]);
    expect(await webhooksOf(user.id)).toEqual([
      expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook, enabled: true }),
    ]);

    // With nothing listening, trigger says the event went nowhere (exit 1, one line).
    const unheard = await run(ocsBin, [
      'trigger',
      'prospect_response',
      '--campaign',
      triggerCampaign.id,
      ...connection,
    ]);
    expect(unheard.code).toBe(1);
    expect(unheard.stderr).toMatch(
      /^ocs: .*no prospect_response sent: no enabled webhook on the campaign; run ocs listen first\.\n$/,
    );
  }, 120_000);

  it('borrows a held slot only with --replace, and re-enables the same webhook (its secret kept) at exit', async () => {
    const user = await userCampaign('Borrowed with --replace');

    const refused = await run(ocsBin, ['listen', '--forward-to', receiverUrl, '--campaign', user.id, ...connection]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `ocs: campaign ${user.id}: its webhook slot is held by ${userHook} (webhook ${user.webhookId}); left alone (pass --replace to borrow it while listening).\n`,
    );

    const { listen } = await startListen(['--campaign', user.id, '--replace']);
    expect(listen.stdout()).toContain(`campaign ${user.id}: disabled ${userHook} while listening; re-enabled at exit.`);
    const during = await webhooksOf(user.id);
    expect(during.find((w) => w.webhook_id === user.webhookId)?.enabled).toBe(false);

    const before = received().length;
    const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--campaign', user.id, ...connection]);
    // The user's campaign has no sequence: trigger says so rather than waiting forever.
    expect(triggered.code).toBe(1);
    expect(triggered.stderr).toMatch(/^ocs: campaign \S+ is not active/);
    expect(received()).toHaveLength(before);

    expect(await listen.stop('SIGINT')).toBe(0);
    const after = await webhooksOf(user.id);
    expect(after.filter((w) => w.enabled)).toEqual([
      expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook, has_secret: true }),
    ]);

    // Borrowed again: the relay webhook of the first time is reused, the user's given back again.
    const { listen: again } = await startListen(['--campaign', user.id, '--replace']);
    expect((await webhooksOf(user.id)).filter((w) => w.enabled)).toEqual([
      expect.objectContaining({ webhook_id: after.find((w) => w.webhook_url.includes('/ocs-listen/'))?.webhook_id }),
    ]);
    expect(await again.stop('SIGINT')).toBe(0);
    const last = await webhooksOf(user.id);
    expect(last.filter((w) => w.enabled)).toEqual([expect.objectContaining({ webhook_id: user.webhookId })]);
    expect(last).toHaveLength(2);
  }, 120_000);
});

describe('a listen that did not exit cleanly', () => {
  it("is cleaned up by the next listen: the stale relay's webhook taken back and reused, the webhook it displaced re-enabled", async () => {
    const user = await userCampaign('Borrowed, then the terminal closed');
    const { listen: killed } = await startListen(['--campaign', user.id, '--replace']);
    await killed.stop('SIGKILL');
    // What the dead one left: its relay in the slot, the user's webhook disabled.
    const left = await webhooksOf(user.id);
    expect(left.find((w) => w.webhook_id === user.webhookId)?.enabled).toBe(false);
    expect(left.filter((w) => w.enabled).map((w) => w.webhook_url)).toEqual([
      expect.stringMatching(/\/ocs-listen\/.+\?displaced=/),
    ]);

    // No --replace needed to take a stale relay's slot back.
    const { listen } = await startListen(['--campaign', user.id]);
    expect(listen.stdout()).toMatch(/took the slot back from \S+, left by an ocs listen that did not exit cleanly/);
    expect(await listen.stop('SIGHUP')).toBe(0);
    const after = await webhooksOf(user.id);
    expect(after.filter((w) => w.enabled)).toEqual([
      expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook }),
    ]);
    // The stale relay's webhook was repointed and reused, not left beside a new one.
    expect(after.filter((w) => w.webhook_url.includes('/ocs-listen/'))).toEqual([
      expect.objectContaining({ enabled: false }),
    ]);
  }, 120_000);
});

describe('a second listen while the first runs', () => {
  it("leaves the running listen's slot alone: only a relay that no longer answers is stale", async () => {
    const { campaign_id: campaignId } = await createCampaign(client, { name: 'Two listens' });
    if (!campaignId) throw new Error('no campaign id');
    const { listen: first } = await startListen(['--campaign', campaignId]);
    const relay = (await webhooksOf(campaignId)).find((w) => w.enabled)?.webhook_url;
    expect(relay).toMatch(/\/ocs-listen\//);

    const second = await run(ocsBin, ['listen', '--forward-to', receiverUrl, '--campaign', campaignId, ...connection]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`ocs: campaign ${campaignId}: its webhook slot is held by ${relay}`);
    // The first still holds the slot, enabled, after the second gave up.
    expect((await webhooksOf(campaignId)).filter((w) => w.enabled).map((w) => w.webhook_url)).toEqual([relay]);
    expect(await first.stop('SIGINT')).toBe(0);
  }, 120_000);
});

describe('a listen --replace over another listen', () => {
  it.each([
    ['the order they started', 'first'],
    ['the reverse order', 'second'],
  ] as const)(
    "gives the user's webhook back when the two stop in %s",
    async (_order, stoppedFirst) => {
      const user = await userCampaign(`Borrowed twice, ${stoppedFirst} stopped first`);
      const { listen: first } = await startListen(['--campaign', user.id, '--replace']);
      const { listen: second } = await startListen(['--campaign', user.id, '--replace']);
      const during = (await webhooksOf(user.id)).filter((w) => w.enabled);
      expect(during.map((w) => w.webhook_url)).toEqual([expect.stringMatching(/\/ocs-listen\//)]);

      const [one, other] = stoppedFirst === 'first' ? [first, second] : [second, first];
      expect(await one.stop('SIGINT')).toBe(0);
      // Whoever still runs holds the slot: one relay enabled, the user's webhook still disabled.
      const between = await webhooksOf(user.id);
      expect(between.filter((w) => w.enabled).map((w) => w.webhook_url)).toEqual([
        expect.stringMatching(/\/ocs-listen\//),
      ]);
      expect(between.find((w) => w.webhook_id === user.webhookId)?.enabled).toBe(false);
      expect(await other.stop('SIGINT')).toBe(0);
      expect(other.stderr()).toBe('');

      const after = await webhooksOf(user.id);
      expect(after.filter((w) => w.enabled)).toEqual([
        expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook }),
      ]);
    },
    120_000,
  );
});

describe('three listens --replace on one campaign', () => {
  const orders = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ] as const;
  it.each(orders)(
    "give the user's webhook back whatever order they stop in (%i, %i, %i)",
    async (...order) => {
      const user = await userCampaign(`Borrowed three times, ${order.join('')}`);
      const listens: Watched[] = [];
      for (let i = 0; i < 3; i += 1) listens.push((await startListen(['--campaign', user.id, '--replace'])).listen);
      for (const index of order) {
        const listen = listens[index] as Watched;
        expect(await listen.stop('SIGINT'), `listen ${index}: ${listen.stderr()}`).toBe(0);
        const enabled = (await webhooksOf(user.id)).filter((w) => w.enabled);
        // Always one webhook in the slot: a running listen's relay, else the user's own.
        expect(enabled).toHaveLength(1);
      }
      const after = await webhooksOf(user.id);
      expect(after.filter((w) => w.enabled)).toEqual([
        expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook }),
      ]);
    },
    120_000,
  );

  // A stopping listen's relay no longer says it is alive, so that the others stopping with it
  // follow the chain to the user's webhook rather than hand the slot to a relay going away.
  it.each([
    [2, 1],
    [3, 1],
    [2, 2],
    [3, 2],
  ])(
    "give the user's webhook back when %i stop at the same moment, each with exit code 0 (run %i)",
    async (count) => {
      const user = await userCampaign(`Borrowed ${count} times, all stopped at once`);
      const listens: Watched[] = [];
      for (let i = 0; i < count; i += 1) listens.push((await startListen(['--campaign', user.id, '--replace'])).listen);
      const codes = await Promise.all(listens.map((listen) => listen.stop('SIGINT')));
      expect(codes, listens.map((listen) => listen.stderr()).join('\n')).toEqual(listens.map(() => 0));
      const after = await webhooksOf(user.id);
      expect(after.filter((w) => w.enabled)).toEqual([
        expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook }),
      ]);
    },
    120_000,
  );

  it("gives the user's webhook back when the listen that displaced another was killed", async () => {
    const user = await userCampaign('Borrowed twice, the second killed');
    const { listen: first } = await startListen(['--campaign', user.id, '--replace']);
    const { listen: second } = await startListen(['--campaign', user.id, '--replace']);
    await second.stop('SIGKILL');
    expect(await first.stop('SIGINT'), first.stderr()).toBe(0);
    expect((await webhooksOf(user.id)).filter((w) => w.enabled)).toEqual([
      expect.objectContaining({ webhook_id: user.webhookId }),
    ]);
  }, 120_000);
});

describe('listen run again and again', () => {
  it("reuses its relay webhook: three runs leave one on the campaign, repointed at each run's relay with its secret", async () => {
    const { campaigns } = await listCampaigns(client, {});
    const campaign = campaigns.find((c) => c.name === 'ocs trigger');
    if (!campaign) throw new Error('run after the first test: no "ocs trigger" campaign');
    const relays = async () => (await webhooksOf(campaign.id)).filter((w) => w.webhook_url.includes('/ocs-listen/'));
    const used = new Set<string>();
    for (let round = 1; round <= 3; round++) {
      const { listen } = await startListen(['--campaign', campaign.id]);
      const enabled = (await relays()).filter((w) => w.enabled);
      expect(enabled, `round ${round}`).toHaveLength(1);
      for (const relay of enabled) used.add(relay.webhook_id);
      if (round === 3) {
        // The reused webhook delivers to this run's relay, signed with this run's secret (the
        // relay refuses any other with a 401, and prints no delivery line then).
        const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--campaign', campaign.id, ...connection]);
        expect(triggered.code).toBe(0);
        await listen.waitFor(/prospect_response {2}lead \S+ \(sequence lead \S+\) {2}-> 200 {2}\d+ ms/);
        expect(listen.stdout()).not.toMatch(/refused a delivery/);
      }
      expect(await listen.stop('SIGINT')).toBe(0);
      expect(await relays(), `round ${round}`).toEqual([expect.objectContaining({ enabled: false })]);
    }
    // The first test's listen left it; every run since took the same one.
    expect(used.size).toBe(1);
  }, 120_000);
});

describe('a failing receiver', () => {
  it("is what the server sees: the receiver's status is the attempt's, and the line says it", async () => {
    const failing = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(503).end());
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hooks`;
    try {
      const { campaigns } = await listCampaigns(client, {});
      const campaign = campaigns.find((c) => c.name === 'ocs trigger');
      if (!campaign) throw new Error('run after the first test: no "ocs trigger" campaign');
      const listen = watch(ocsBin, ['listen', '--forward-to', target, '--campaign', campaign.id, ...connection]);
      await listen.waitFor(/Signing secret/);
      const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--campaign', campaign.id, ...connection]);
      expect(triggered.code).toBe(0);
      const deliveryId = /delivery (\S+) /.exec(triggered.stdout)?.[1];
      await listen.waitFor(/prospect_response {2}lead \S+ \(sequence lead \S+\) {2}-> 503 {2}\d+ ms/);
      // listen prints its line as the relay answers the server, which records the attempt
      // just after (its completions are written in batches): wait for the attempt's row.
      await expect
        .poll(
          async () =>
            (await listSandboxDeliveries(client, { campaign_id: campaign.id, limit: 500 })).deliveries.find(
              (d) => d.delivery_id === deliveryId,
            ),
          { timeout: 20_000, interval: 100 },
        )
        .toMatchObject({ status: 'pending', attempts_made: 1, attempts: [{ ok: false, status: 503 }] });
      expect(await listen.stop('SIGINT')).toBe(0);
      // The event was made (exit code 0), and trigger says the attempt failed and when the next is.
      expect(triggered.stdout).toMatch(
        /; delivery \S+ pending: attempt 1 answered 503; next attempt at \S+ by the sandbox clock \(advancing the clock runs it, sent to whatever webhook the campaign has then: keep ocs listen running until then, or the retry finds none and the event is dropped\)\.\n$/,
      );
    } finally {
      failing.closeAllConnections();
      await new Promise((resolve) => failing.close(resolve));
    }
  }, 120_000);
});

/** The "ocs trigger" campaign the first test made. */
async function triggerCampaign() {
  const { campaigns } = await listCampaigns(client, {});
  const campaign = campaigns.find((c) => c.name === 'ocs trigger');
  if (!campaign) throw new Error('run after the first test: no "ocs trigger" campaign');
  return campaign;
}

/** A receiver that answers every request 200, `ms` after it came. */
async function slowReceiver(ms: number) {
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(200).end();
      }, ms);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A receiver that holds every request until `answer(status)`; `got` resolves at the first. */
async function heldReceiver() {
  const held: ServerResponse[] = [];
  let arrived: () => void = () => undefined;
  const got = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      held.push(response);
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    got,
    answer(status: number) {
      for (const response of held.splice(0)) response.writeHead(status).end();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('Ctrl-C while a delivery is in flight', () => {
  /** What becomes of the attempt left unanswered: the slots are back, so the retry finds what the campaign has then. */
  const retried =
    'retries it 15 minutes later by the sandbox clock, sent to whatever webhook the campaign has then: run ocs listen again before advancing the clock, or the retry finds none and the event is dropped';
  const waiting = new RegExp(
    `^Waiting for 1 delivery in flight to finish \\(up to (\\d+) s\\), so that the server gets your receiver's answer; press Ctrl-C again to quit now \\(the server then counts its attempt as failed and ${retried}\\)\\.$`,
    'm',
  );

  it("says what it waits for, and waits: the receiver's answer reaches the server, which records the delivery", async () => {
    const receiver = await heldReceiver();
    let listen: Watched | undefined;
    try {
      const campaign = await triggerCampaign();
      listen = watch(ocsBin, ['listen', '--forward-to', receiver.url, '--campaign', campaign.id, ...connection]);
      await listen.waitFor(/Signing secret/);
      const trigger = watch(ocsBin, ['trigger', 'prospect_response', '--campaign', campaign.id, ...connection]);
      await receiver.got;
      listen.child.kill('SIGINT');
      const [, seconds] = await listen.waitFor(waiting, 10_000);
      expect(Number(seconds)).toBeGreaterThan(60);
      expect(Number(seconds)).toBeLessThanOrEqual(75);
      // The slots are back already; the relay still waits for the receiver.
      expect((await webhooksOf(campaign.id)).filter((w) => w.enabled)).toEqual([]);
      receiver.answer(200);
      expect(await listen.exited).toBe(0);
      expect(listen.stderr()).toBe('');
      expect(listen.stdout()).toMatch(/ {2}-> 200 {2}\d+ ms\nStopped; webhook slots given back\.\n$/);
      expect(await trigger.exited).toBe(0);
      expect(trigger.stdout()).toMatch(/; delivery \S+ delivered \(HTTP 200, \d+ ms\)\.\n$/);
    } finally {
      // Failed half-way, the listen would hold the campaign's slot for the next tests.
      await listen?.stop('SIGKILL');
      await receiver.close();
    }
  }, 120_000);

  it('quits at once on a second Ctrl-C (exit code 130), saying what becomes of the delivery, which the server retries', async () => {
    const receiver = await heldReceiver();
    let listen: Watched | undefined;
    try {
      const campaign = await triggerCampaign();
      listen = watch(ocsBin, ['listen', '--forward-to', receiver.url, '--campaign', campaign.id, ...connection]);
      await listen.waitFor(/Signing secret/);
      // trigger waits a bounded time for the first attempt's outcome, then says it is pending.
      const triggeredAt = Date.now();
      const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--campaign', campaign.id, ...connection]);
      const triggerTook = Date.now() - triggeredAt;
      const deliveryId = /delivery (\S+) /.exec(triggered.stdout)?.[1];
      await receiver.got;

      listen.child.kill('SIGINT');
      await listen.waitFor(waiting, 10_000);
      const quitAt = Date.now();
      expect(await listen.stop('SIGINT')).toBe(130);
      expect(Date.now() - quitAt).toBeLessThan(5_000);
      expect(listen.stderr()).toBe(
        `ocs: interrupted with 1 delivery in flight: the server counts its attempt as failed and ${retried}. Webhook slots given back.\n`,
      );
      expect((await webhooksOf(campaign.id)).filter((w) => w.enabled)).toEqual([]);
      // As said: the attempt failed (no answer), and a retry is due.
      await expect
        .poll(
          async () =>
            (await listSandboxDeliveries(client, { campaign_id: campaign.id, limit: 500 })).deliveries.find(
              (d) => d.delivery_id === deliveryId,
            ),
          { timeout: 20_000, interval: 100 },
        )
        .toMatchObject({ status: 'pending', attempts_made: 1, attempts: [{ ok: false, status: null }] });
      // As said too: the slot given back, the retry finds no webhook, and the event is dropped.
      await advanceSandboxClock(client, { seconds: 16 * 60 });
      await expect
        .poll(
          async () =>
            (await listSandboxDeliveries(client, { campaign_id: campaign.id, limit: 500 })).deliveries.find(
              (d) => d.delivery_id === deliveryId,
            )?.status,
          { timeout: 20_000, interval: 200 },
        )
        .toBe('failed');
      expect(triggerTook).toBeLessThan(30_000);
      expect(triggered.code).toBe(0);
      expect(triggered.stdout).toMatch(
        /; delivery \S+ pending: no answer within 10 s from the receiver \(ocs listen prints it when it comes\)\.\n$/,
      );
    } finally {
      await listen?.stop('SIGKILL');
      await receiver.close();
    }
  }, 120_000);
});

describe('a second Ctrl-C while the slots are being given back', () => {
  it('quits once they are back, without waiting for the delivery in flight (exit code 130)', async () => {
    const receiver = await heldReceiver();
    let open: () => void = () => undefined;
    const hold = new Promise<void>((resolve) => (open = resolve));
    let armed = false;
    const proxy = await serverProxy(server.url, (method, url) =>
      armed && method === 'DELETE' && /\/webhooks\/[^/]+$/.test(url) ? { hold } : undefined,
    );
    let listen: Watched | undefined;
    try {
      const campaign = await triggerCampaign();
      listen = watch(ocsBin, [
        'listen',
        '--forward-to',
        receiver.url,
        '--campaign',
        campaign.id,
        ...connectionTo(proxy.url),
      ]);
      await listen.waitFor(/Signing secret/);
      const trigger = watch(ocsBin, ['trigger', 'prospect_response', '--campaign', campaign.id, ...connection]);
      await receiver.got;
      armed = true;
      listen.child.kill('SIGINT');
      // The slot's giving back is held at the proxy: a second Ctrl-C comes meanwhile.
      await proxy.reached;
      listen.child.kill('SIGINT');
      await listen.waitFor(
        /^Still giving the webhook slots back, then quitting without waiting for the 1 delivery in flight; press Ctrl-C again to give up on those not back yet \(the next ocs listen takes them back\)\.$/m,
        10_000,
      );
      open();
      // The receiver never answers: waiting for it would take its 75 s.
      expect(await within(listen.exited, 20_000)).toBe(130);
      expect(listen.stderr()).toMatch(
        /^ocs: interrupted with 1 delivery in flight: the server counts its attempt as failed and retries it 15 minutes later by the sandbox clock, sent to whatever webhook the campaign has then: run ocs listen again before advancing the clock, or the retry finds none and the event is dropped\. Webhook slots given back\.\n$/,
      );
      expect(listen.stdout()).not.toMatch(/Waiting for/);
      expect((await webhooksOf(campaign.id)).filter((w) => w.enabled)).toEqual([]);
      expect(await trigger.exited).toBe(0);
    } finally {
      await listen?.stop('SIGKILL');
      await receiver.close();
      await proxy.close();
    }
  }, 120_000);
});

describe('ocs trigger at the default rate limits', () => {
  let limited: LocalServer;
  beforeAll(async () => {
    limited = await startReferenceServer(['--allow-insecure-webhooks']);
  }, 120_000);
  afterAll(async () => limited?.close());

  it("reads the campaign's deliveries sparingly: two triggers within a minute with a slow receiver both say the delivery is pending", async () => {
    // Slower than trigger waits (10 s); not as slow as the 75 s allowed, as advancing the
    // sandbox clock (the second trigger) waits for the attempts in flight.
    const receiver = await slowReceiver(13_000);
    const reading = (method: string, url: string) =>
      method === 'GET' && /\/sandbox\/campaigns\/[^/]+\/deliveries/.test(url) ? 'pass' : undefined;
    const proxy = await serverProxy(limited.url, reading);
    let listen: Watched | undefined;
    try {
      listen = watch(ocsBin, [
        'listen',
        '--forward-to',
        receiver.url,
        '--base-url',
        limited.url,
        '--api-key',
        limited.apiKey,
      ]);
      await listen.waitFor(/Signing secret/);
      const through = ['--base-url', proxy.url, '--api-key', limited.apiKey];
      const triggers = [
        await run(ocsBin, ['trigger', 'prospect_response', ...through]),
        await run(ocsBin, ['trigger', 'prospect_response', ...through]),
      ];
      for (const triggered of triggers) {
        expect(triggered.stderr).toBe('');
        expect(triggered.code).toBe(0);
        // No answer from the held receiver; the server may not have attempted the second yet.
        expect(triggered.stdout).toMatch(
          /; delivery \S+ pending: (?:no answer within 10 s from the receiver|not attempted by the server within 10 s) \(ocs listen prints it when it comes\)\.\n$/,
        );
      }
      // About 15 reads each in its 10 s (the total, then a page after 0.1, 0.2, 0.4, 0.8 s and
      // then every second): one trigger used to read 90 times, most of the key's 100 a minute.
      expect(proxy.counts.picked).toBeGreaterThanOrEqual(4);
      expect(proxy.counts.picked).toBeLessThanOrEqual(36);
      const campaignId = /\(([0-9a-f-]{36})\); delivery/.exec(triggers[1]?.stdout ?? '')?.[1] ?? '';
      const limitedClient = createClient({ baseUrl: limited.url, apiKey: limited.apiKey });
      const after = await listSandboxDeliveries(limitedClient, { campaign_id: campaignId, limit: 1 });
      expect(after.rateLimit.remaining).toBeGreaterThan(50);
    } finally {
      await listen?.stop('SIGKILL');
      await receiver.close();
      await proxy.close();
    }
  }, 120_000);
});

describe('a receiver that is down', () => {
  it('makes trigger say the attempt failed (the relay answers 502), with exit code 0: the event was made', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hooks`;
    await new Promise((resolve) => closed.close(resolve));
    const campaign = await triggerCampaign();
    const listen = watch(ocsBin, ['listen', '--forward-to', target, '--campaign', campaign.id, ...connection]);
    await listen.waitFor(/Signing secret/);
    const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--campaign', campaign.id, ...connection]);
    await listen.waitFor(/-> receiver unreachable \(ECONNREFUSED\)/);
    expect(await listen.stop('SIGINT')).toBe(0);
    expect(triggered.code).toBe(0);
    expect(triggered.stderr).toBe('');
    expect(triggered.stdout).toMatch(
      /; delivery \S+ pending: attempt 1 answered 502; next attempt at \S+ by the sandbox clock/,
    );
  }, 120_000);
});

/**
 * What `serverProxy` does with a request: pass it on; answer 503 without passing it on (a
 * server restarting), or after passing it on (the server did it, its answer was lost);
 * answer with `status` and `error` (and `headers`) without passing it on; never answer; or
 * pass it on once `hold` resolves.
 */
type ProxyAction =
  | 'pass'
  | 'refuse'
  | 'refuse-after'
  | 'hang'
  | { status: number; error: string; headers?: Record<string, string> }
  | { hold: Promise<void> };

/**
 * A proxy in front of the server that does what `decide` says with each request (nothing:
 * passes it on uncounted); it counts the requests `decide` picked, and `reached` resolves at
 * the first of them.
 */
async function serverProxy(target: string, decide: (method: string, url: string) => ProxyAction | undefined) {
  const upstream = new URL(target);
  const counts = { picked: 0 };
  let arrive: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const refusal = JSON.stringify({ success: false, error: 'UPSTREAM_TIMEOUT', message: 'A dependency timed out.' });
  const proxy = createServer((request, response) => {
    void (async () => {
      const body = await buffer(request);
      const action = decide(request.method ?? '', request.url ?? '');
      if (action !== undefined) {
        counts.picked += 1;
        arrive();
      }
      if (action === 'hang') return;
      if (action === 'refuse') {
        response.writeHead(503, { 'content-type': 'application/json' }).end(refusal);
        return;
      }
      if (typeof action === 'object' && 'status' in action) {
        response
          .writeHead(action.status, { 'content-type': 'application/json', ...action.headers })
          .end(JSON.stringify({ success: false, error: action.error, message: `Answered ${action.error}.` }));
        return;
      }
      if (typeof action === 'object') await action.hold;
      const answer = await passOn(request, body, upstream);
      if (action === 'refuse-after') {
        response.writeHead(503, { 'content-type': 'application/json' }).end(refusal);
        return;
      }
      response.writeHead(answer.status, answer.headers).end(answer.body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname.replace(/\/$/, '')}`,
    counts,
    reached,
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

/**
 * A proxy in front of the server that answers 503 to the first `failures` requests that
 * `fails` picks (a server restarting, say) and passes every other on; it counts what it picked.
 */
async function flakyProxy(target: string, fails: (method: string, url: string) => boolean, failures: number) {
  let refused = 0;
  const proxy = await serverProxy(target, (method, url) => {
    if (!fails(method, url)) return undefined;
    if (refused >= failures) return 'pass';
    refused += 1;
    return 'refuse';
  });
  return {
    ...proxy,
    get counts() {
      return { picked: proxy.counts.picked, refused };
    },
  };
}

/** Campaigns of the file's server made for one test, without a webhook. */
async function campaigns(...names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const { campaign_id: id } = await createCampaign(client, { name });
    if (!id) throw new Error('no campaign id');
    ids.push(id);
  }
  return ids;
}

/** `promise`'s value, or 'still running' if it takes longer than `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);

describe('giving the slots back while the server fails', () => {
  const disabling = (method: string, url: string) => method === 'DELETE' && /\/webhooks\/[^/]+$/.test(url);
  /** The CLI's usual line for a server that never answers (connection.ts). */
  const noAnswer = (url: string) =>
    `no answer in time from ${url} \\(disableWebhook\\): is the server running\\? Set --base-url or OCS_BASE_URL\\.`;

  it('gives a slot back through a server that refuses for a moment (disableWebhook answered 503 three times)', async () => {
    const [id = ''] = await campaigns('Given back through a blip');
    const proxy = await flakyProxy(server.url, disabling, 3);
    try {
      const { listen } = await startListen(['--campaign', id, '--base-url', proxy.url]);
      expect((await webhooksOf(id)).filter((w) => w.enabled)).toHaveLength(1);
      expect(await listen.stop('SIGINT'), listen.stderr()).toBe(0);
      expect(listen.stdout()).toContain('Stopped; webhook slots given back.');
      // The SDK's own retry, then two more tries of the release: the fourth request went through.
      expect(proxy.counts).toEqual({ picked: 4, refused: 3 });
      expect((await webhooksOf(id)).filter((w) => w.enabled)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('says so in a few seconds when the server stays down: the first slot tried three times, the next once, in the usual line', async () => {
    const ids = await campaigns('Server down at exit, 1', 'Server down at exit, 2');
    const proxy = await flakyProxy(server.url, disabling, Number.POSITIVE_INFINITY);
    try {
      const { listen } = await startListen([...ids.flatMap((id) => ['--campaign', id]), '--base-url', proxy.url]);
      const stoppedAt = Date.now();
      expect(await listen.stop('SIGINT')).toBe(1);
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      // What the server answered, as every other failure of ocs says it (not the SDK's text).
      const refused =
        'disableWebhook answered 503 UPSTREAM_TIMEOUT: A dependency timed out\\. \\(UPSTREAM_TIMEOUT, HTTP 503\\)';
      expect(listen.stderr()).toMatch(
        new RegExp(
          `^ocs: stopped, but campaign ${ids[0]}: could not disable webhook \\S+: ${refused}; campaign ${ids[1]}: could not disable webhook \\S+: ${refused}\\n$`,
        ),
      );
      // Two requests (the SDK retries once) per try: three tries, then one.
      expect(proxy.counts.picked).toBe(8);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("says a server that is gone in the usual line, not the SDK's text", async () => {
    const [id = ''] = await campaigns('Server gone at exit');
    const proxy = await serverProxy(server.url, () => undefined);
    const { listen } = await startListen(['--campaign', id, '--base-url', proxy.url]);
    await proxy.close();
    expect(await listen.stop('SIGINT')).toBe(1);
    expect(listen.stderr()).toMatch(
      new RegExp(
        `^ocs: stopped, but campaign ${id}: could not disable webhook \\S+: cannot reach ${proxy.url} \\(disableWebhook\\): is the server running\\? Set --base-url or OCS_BASE_URL\\.\\n$`,
      ),
    );
    // Left in the slot: the next listen takes it back.
    const { listen: next } = await startListen(['--campaign', id]);
    expect(next.stdout()).toMatch(/took the slot back from \S+, left by an ocs listen that did not exit cleanly/);
    expect(await next.stop('SIGINT')).toBe(0);
  }, 120_000);

  it.each([
    [
      'a 429 whose Retry-After is longer than the waits',
      { status: 429, error: 'RATE_LIMITED', headers: { 'retry-after': '30' } },
      '429 RATE_LIMITED',
    ],
    [
      'a permanent 500 (one the SDK does not retry)',
      { status: 500, error: 'ORG_HAS_NO_MEMBERS' },
      '500 ORG_HAS_NO_MEMBERS',
    ],
  ] as const)(
    'does not try again after %s',
    async (_what, answer, said) => {
      const [id = ''] = await campaigns(`Given back through ${said}`);
      let armed = false;
      const proxy = await serverProxy(server.url, (method, url) =>
        armed && disabling(method, url) ? answer : undefined,
      );
      try {
        const { listen } = await startListen(['--campaign', id, '--base-url', proxy.url]);
        armed = true;
        expect(await listen.stop('SIGINT')).toBe(1);
        expect(listen.stderr()).toMatch(
          new RegExp(
            `^ocs: stopped, but campaign ${id}: could not disable webhook \\S+: disableWebhook answered ${said}: `,
          ),
        );
        expect(proxy.counts.picked).toBe(1);
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );

  it('takes a server that does not answer for down: each slot tried once, within a few seconds each', async () => {
    const ids = await campaigns('Server hangs at exit, 1', 'Server hangs at exit, 2');
    let armed = false;
    const proxy = await serverProxy(server.url, (method, url) =>
      armed && disabling(method, url) ? 'hang' : undefined,
    );
    try {
      const { listen } = await startListen([...ids.flatMap((id) => ['--campaign', id]), '--base-url', proxy.url]);
      armed = true;
      const stoppedAt = Date.now();
      expect(await listen.stop('SIGINT')).toBe(1);
      // 5 s a slot; it was 30 s a slot, the client's timeout.
      expect(Date.now() - stoppedAt).toBeLessThan(25_000);
      expect(listen.stderr()).toMatch(
        new RegExp(
          `^ocs: stopped, but campaign ${ids[0]}: could not disable webhook \\S+: ${noAnswer(proxy.url)}; campaign ${ids[1]}: could not disable webhook \\S+: ${noAnswer(proxy.url)}\\n$`,
        ),
      );
      expect(proxy.counts.picked).toBe(2);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('gives up at a further Ctrl-C, naming the slots left, which the next listen takes back', async () => {
    const ids = await campaigns('Given up at exit, 1', 'Given up at exit, 2');
    let armed = false;
    const proxy = await serverProxy(server.url, (method, url) =>
      armed && disabling(method, url) ? 'hang' : undefined,
    );
    try {
      const { listen } = await startListen([...ids.flatMap((id) => ['--campaign', id]), '--base-url', proxy.url]);
      armed = true;
      listen.child.kill('SIGINT');
      await proxy.reached;
      listen.child.kill('SIGINT');
      await listen.waitFor(
        /^Still giving the webhook slots back; press Ctrl-C again to give up on those not back yet \(the next ocs listen takes them back\)\.$/m,
        10_000,
      );
      const gaveUpAt = Date.now();
      expect(await listen.stop('SIGINT')).toBe(130);
      expect(Date.now() - gaveUpAt).toBeLessThan(4_000);
      const left = (id: string) =>
        `campaign ${id}: gave up giving its slot back \\(its relay webhook \\S+ holds it; the next ocs listen on it takes it back\\)`;
      expect(listen.stderr()).toMatch(
        new RegExp(
          `^ocs: interrupted while giving the webhook slots back: ${left(ids[0] ?? '')}; ${left(ids[1] ?? '')}\\.\\n$`,
        ),
      );
      expect(proxy.counts.picked).toBe(1);
      // As said: the next listen on the campaign takes the slot back.
      const { listen: next } = await startListen(['--campaign', ids[0] ?? '']);
      expect(next.stdout()).toMatch(/took the slot back from \S+, left by an ocs listen that did not exit cleanly/);
      expect(await next.stop('SIGINT')).toBe(0);
      expect((await webhooksOf(ids[0] ?? '')).filter((w) => w.enabled)).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("re-enables the user's webhook when the server did it but its answer was lost (createWebhook answered 503)", async () => {
    const user = await userCampaign('Re-enabled, the answer lost');
    let armed = false;
    let refused = 0;
    const proxy = await serverProxy(server.url, (method, url) => {
      if (!armed || method !== 'POST' || !url.endsWith(`/campaigns/${user.id}/webhooks`)) return undefined;
      refused += 1;
      return refused === 1 ? 'refuse-after' : 'pass';
    });
    try {
      const { listen } = await startListen(['--campaign', user.id, '--replace', '--base-url', proxy.url]);
      expect((await webhooksOf(user.id)).find((w) => w.webhook_id === user.webhookId)?.enabled).toBe(false);
      armed = true;
      expect(await listen.stop('SIGINT'), listen.stderr()).toBe(0);
      expect(listen.stderr()).toBe('');
      expect(listen.stdout()).toContain('Stopped; webhook slots given back.');
      // Registered twice: the second found it enabled already (DUPLICATE_WEBHOOK), which is done.
      expect(proxy.counts.picked).toBe(2);
      expect((await webhooksOf(user.id)).filter((w) => w.enabled)).toEqual([
        expect.objectContaining({ webhook_id: user.webhookId, webhook_url: userHook, has_secret: true }),
      ]);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

describe('ocs as a command', () => {
  it('answers --help and --version with exit code 0, on every command', async () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const command of [[], ['listen'], ['trigger']]) {
      const help = await run(ocsBin, [...command, '--help']);
      expect(help, command.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: ocs/);
      expect(help.stdout).toMatch(/^ {2}--version +the version$/m);
      // Every option's text starts in one column, the shared --base-url and --api-key lines too.
      const options = help.stdout.slice(help.stdout.indexOf('Options:'));
      const columns = [...options.matchAll(/^ {2}-\S*(?: \S+)*? {2,}(?=\S)/gm)].map((match) => match[0].length);
      expect(columns.length, command.join(' ')).toBeGreaterThan(2);
      expect(new Set(columns), command.join(' ')).toHaveLength(1);
      // No key, no server: --version answers before anything is checked or reached.
      expect(await run(ocsBin, [...command, '--version']), command.join(' ')).toEqual({
        code: 0,
        stdout: `${version}\n`,
        stderr: '',
      });
    }
  });

  it('says a mistake in one line with exit code 2', async () => {
    const mistakes: Array<[string[], RegExp]> = [
      [['listen', '--api-key', 'k'], /--forward-to is required/],
      [['listen', '--forward-to', 'localhost:3000', '--api-key', 'k'], /--forward-to must be an http\(s\) URL/],
      [['listen', '--forward-to', 'http://localhost:3000'], /an API key is needed/],
      [['trigger', 'lead_created', '--api-key', 'k'], /unknown event 'lead_created'/],
      [
        ['trigger', 'prospect_response', '--sentiment', 'happy', '--api-key', 'k'],
        /--sentiment must be positive, neutral or negative/,
      ],
      [['trigger', 'prospect_response', '--channel', 'sms', '--api-key', 'k'], /--channel must be email or linkedin/],
      // A built-in property name is no sentiment: it used to pass, and fail after a lead was made.
      [
        ['trigger', 'prospect_response', '--sentiment', 'toString', '--api-key', 'k'],
        /--sentiment must be positive, neutral or negative, got 'toString'/,
      ],
      [
        ['listen', '--forward-to', 'http://user:pw@127.0.0.1:3000/hooks', '--api-key', 'k'],
        /--forward-to must carry no user or password/,
      ],
      [['serve'], /unknown command 'serve'/],
      // Names Object.prototype has: `constructor` exited 0 having done nothing.
      [['constructor'], /unknown command 'constructor'/],
      [['__proto__'], /unknown command '__proto__'/],
      [['hasOwnProperty'], /unknown command 'hasOwnProperty'/],
      [['listen', '--bogus'], /unknown option --bogus/],
      // The last one was taken, unsaid.
      [
        ['listen', '--forward-to', 'http://127.0.0.1:9/a', '--forward-to', 'http://127.0.0.1:9/b', '--api-key', 'k'],
        /--forward-to must be given once/,
      ],
      [
        ['trigger', 'prospect_response', '--sentiment', 'positive', '--sentiment', 'negative', '--api-key', 'k'],
        /--sentiment must be given once/,
      ],
      // An empty --campaign (a variable that was not set): trigger used its own campaign.
      [['trigger', 'prospect_response', '--campaign=', '--api-key', 'k'], /--campaign needs a campaign ID/],
      [
        ['listen', '--forward-to', 'http://127.0.0.1:3000', '--campaign', ' ', '--api-key', 'k'],
        /--campaign needs a campaign ID/,
      ],
      // A name or a typo: it was a failure line (exit 1) after a request to the server.
      [
        ['trigger', 'prospect_response', '--campaign', 'nope', '--api-key', 'k'],
        /--campaign must be a campaign ID \(a UUID\), got 'nope'/,
      ],
      [
        ['listen', '--forward-to', 'http://127.0.0.1:9/h', '--campaign', 'Q4 Founders', '--api-key', 'k'],
        /--campaign must be a campaign ID \(a UUID\), got 'Q4 Founders'/,
      ],
    ];
    for (const [args, message] of mistakes) {
      const { code, stderr } = await run(ocsBin, args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('says in one line that a --campaign is not found for the key, and what to do (trigger too)', async () => {
    const unknown = '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14';
    const said = new RegExp(
      `^ocs: campaign ${unknown} not found with this API key on ${server.url.replace(/[.]/g, '\\.')}: check the ID \\(GET /campaigns lists the key's campaigns\\), or pass the key of the organization that owns it with --api-key or OCS_API_KEY\\.\\n$`,
    );
    // It used to print `listWebhooks answered 404 CAMPAIGN_NOT_FOUND: ...`, saying nothing of what to do.
    const listened = await run(ocsBin, ['listen', '--forward-to', receiverUrl, '--campaign', unknown, ...connection]);
    expect(listened.code).toBe(1);
    expect(listened.stderr).toMatch(said);
    const triggered = await run(ocsBin, ['trigger', 'prospect_response', '--campaign', unknown, ...connection]);
    expect(triggered.code).toBe(1);
    expect(triggered.stderr).toMatch(said);
  }, 60_000);

  it('says in one line that the server must allow loopback receivers', async () => {
    const strict = await startReferenceServer([]);
    try {
      const strictClient = createClient({ baseUrl: strict.url, apiKey: strict.apiKey });
      const { campaign_id: id } = await createCampaign(strictClient, { name: 'On a strict server' });
      const { code, stderr } = await run(ocsBin, [
        'listen',
        '--forward-to',
        receiverUrl,
        '--base-url',
        strict.url,
        '--api-key',
        strict.apiKey,
      ]);
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^ocs: the server refuses a loopback receiver \(INVALID_WEBHOOK_URL\): start it with --allow-insecure-webhooks/,
      );
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      if (!id) throw new Error('no campaign id');
      expect((await listWebhooks(strictClient, { campaign_id: id })).webhooks).toEqual([]);
    } finally {
      await strict.close();
    }
  }, 120_000);
});
