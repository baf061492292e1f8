/**
 * `ocs listen`'s slot bookkeeping (`SlotLeases` and the relay, as listen.ts runs them) in the
 * orders that two listens acting at the same moment can take, each forced by holding one
 * listen's requests at a gate, against the reference server:
 * - a listen starting while another is giving its slot back finds the slot held, not a dead
 *   listen's to take over (it would be disabled under it a moment later);
 * - of two listens --replace stopping together, the later one (B) checks the earlier one's
 *   relay (A) while A still runs, then A starts stopping: B's re-enabling of A's relay lands
 *   just before or just after A gives the user's webhook back; either way, the user's webhook
 *   ends in the slot and neither listen reports a problem.
 */
import { createCampaign, createClient, createWebhook, listWebhooks, type OcsClient } from '@ocs/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Relay, startRelay } from '../src/cli/relay.ts';
import { SlotLeases } from '../src/cli/slot-lease.ts';
import { type LocalServer, requireBuilds, startReferenceServer } from './support/local-processes.ts';

let server: LocalServer;
let client: OcsClient;

beforeAll(async () => {
  requireBuilds();
  server = await startReferenceServer(['--allow-insecure-webhooks']);
  client = createClient({ baseUrl: server.url, apiKey: server.apiKey });
}, 120_000);

afterAll(async () => server?.close());

const relays: Relay[] = [];
async function relay(): Promise<{ relay: Relay; secret: string }> {
  const secret = `whsec_${crypto.randomUUID().replaceAll('-', '')}`;
  const started = await startRelay({ secret, forwardTo: 'http://127.0.0.1:9/x', onForwarded() {}, onRefused() {} });
  relays.push(started);
  return { relay: started, secret };
}
afterAll(async () => {
  await Promise.all(relays.map((r) => r.close()));
});

/**
 * A client whose requests matching `held` wait until `open()`; `reached` resolves when the
 * first of them arrives. Re-enabling is a registration without a secret.
 */
function gatedClient(held: (request: Request, body: string) => boolean) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrive: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const gated = createClient({
    baseUrl: server.url,
    apiKey: server.apiKey,
    fetch: async (input: Request | string | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      if (held(request, await request.clone().text())) {
        arrive();
        await gate;
      }
      return fetch(request);
    },
  });
  return { client: gated, open, reached };
}

const isReEnable = (request: Request, body: string) =>
  request.method === 'POST' && request.url.endsWith('/webhooks') && !body.includes('"secret"');

async function userCampaign(name: string): Promise<{ id: string; userId: string }> {
  const { campaign_id: id } = await createCampaign(client, { name });
  if (!id) throw new Error('no campaign id');
  const user = await createWebhook(client, {
    campaign_id: id,
    webhook_url: 'https://hooks.example.com/u',
    secret: 'users-own-secret-0123456789',
  });
  return { id, userId: user.webhook_id };
}

const enabledIds = async (campaignId: string) =>
  (await listWebhooks(client, { campaign_id: campaignId })).webhooks.filter((w) => w.enabled).map((w) => w.webhook_id);

it('a listen starting while another gives its slot back finds the slot held', async () => {
  const { id, userId } = await userCampaign('Stopping while another starts');
  const a = await relay();
  const leasesA = new SlotLeases(client, server.url, { url: a.relay.url, secret: a.secret }, true);
  expect((await leasesA.claim(id)).kind).toBe('leased');
  // A's stop, as listen.ts runs it: the relay says it is stopping, then the slots go back.
  a.relay.stopAnswering();
  const c = await relay();
  const leasesC = new SlotLeases(client, server.url, { url: c.relay.url, secret: c.secret }, false);
  expect((await leasesC.claim(id)).kind).toBe('held');
  expect(await leasesA.releaseAll()).toEqual([]);
  expect(await enabledIds(id)).toEqual([userId]);
}, 120_000);

it.each(['before', 'after'] as const)(
  "gives the user's webhook back when B re-enables A's relay %s A gives the slot back",
  async (when) => {
    const { id, userId } = await userCampaign(`Stopped together, B's re-enable ${when}`);
    const gateA = gatedClient(isReEnable);
    const a = await relay();
    const leasesA = new SlotLeases(gateA.client, server.url, { url: a.relay.url, secret: a.secret }, true);
    expect((await leasesA.claim(id)).kind).toBe('leased');
    const gateB = gatedClient(isReEnable);
    const b = await relay();
    const leasesB = new SlotLeases(gateB.client, server.url, { url: b.relay.url, secret: b.secret }, true);
    expect((await leasesB.claim(id)).kind).toBe('leased');

    // B stops first, and reaches its re-enabling of A's relay while A still runs.
    b.relay.stopAnswering();
    const bDone = leasesB.releaseAll();
    await gateB.reached;
    // A starts stopping: it disables its webhook, and reaches its re-enabling of the user's.
    a.relay.stopAnswering();
    const aDone = leasesA.releaseAll();
    await gateA.reached;
    if (when === 'before') {
      gateB.open();
      expect(await bDone).toEqual([]);
      gateA.open();
      expect(await aDone).toEqual([]);
    } else {
      gateA.open();
      expect(await aDone).toEqual([]);
      gateB.open();
      expect(await bDone).toEqual([]);
    }
    expect(await enabledIds(id)).toEqual([userId]);
  },
  120_000,
);
