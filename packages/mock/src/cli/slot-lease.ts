/**
 * `ocs listen` borrows campaigns' webhook slots and gives them back. A campaign has one slot
 * (spec section 3): when a user's webhook holds it, `listen` leaves it alone unless told
 * (`--replace`); then it disables that webhook (which keeps its URL and its secret) and, at
 * exit, registers the same URL again, which re-enables it with its secret kept. Nothing is
 * ever repointed: a repointed webhook keeps the user's secret, which `listen` cannot know.
 *
 * A `listen` killed before it gave its slots back (a closed terminal, SIGKILL) leaves its relay
 * registered and the user's webhook disabled. So the relay's registration names what it
 * displaced (`?displaced=<webhook id>`), on the server where it outlives the process, and the
 * next `listen` that finds such a stale relay in a slot takes the slot back without --replace
 * and, at its own exit, re-enables the webhook the dead one had displaced. A relay that still
 * answers (relay.ts, `relayState`) belongs to a `listen` that is running, or giving its slots
 * back: its slot is held, like a user's webhook, and taken only with --replace.
 *
 * The API never deletes a webhook, only disables it, and each `listen` has a relay of its own
 * (a new port and path). So that runs do not pile up disabled webhooks, a campaign keeps one
 * relay webhook, known by its marker (a loopback URL whose path starts with `/ocs-listen/`),
 * which every `listen` reuses: a stale relay in the slot is repointed at this run's relay,
 * with this run's secret (`replace: true`: the webhook keeps its ID); a relay webhook that an
 * earlier `listen` disabled at exit is re-enabled (its URL registered again) and repointed the
 * same way. Only a campaign that has none gets a new one.
 */
import {
  createWebhook,
  disableWebhook,
  listWebhooks,
  OcsApiError,
  OcsConnectionError,
  OcsTimeoutError,
  paginate,
  type OcsClient,
} from '@ocs/sdk';
import { delay } from '../core/abort.ts';
import { firstLine } from '@ocs/server/cli-kit';
import { call, describeFailure, isApiError } from './connection.ts';
import { relayPathPrefix, relayState } from './relay.ts';

export interface Lease {
  campaignId: string;
  /** The webhook `listen` registered (disabled again on release). */
  webhookId: string;
  /** The user's webhook `listen` disabled to take the slot (`--replace`), re-enabled on release. */
  displaced: { id: string; url: string } | null;
  /** The relay of an earlier `listen` that did not exit cleanly, found in the slot and disabled. */
  staleRelay: string | null;
}

interface Holder {
  id: string;
  url: string;
  /** A relay of an earlier `listen`, and the webhook it had displaced, if any. */
  stale?: { displaced: { id: string; url: string } | null };
}

/** What a campaign's webhooks say: who holds the slot, and a disabled relay webhook to reuse. */
interface Slot {
  holder: Holder | null;
  spare: { id: string; url: string } | null;
}

export type Claim = { kind: 'leased'; lease: Lease } | { kind: 'held'; holder: { id: string; url: string } };

export class SlotLeases {
  readonly leases = new Map<string, Lease>();

  constructor(
    private readonly client: OcsClient,
    private readonly baseUrl: string,
    private readonly relay: { url: string; secret: string },
    private readonly replace: boolean,
  ) {}

  /** Takes the campaign's slot for the relay, or says who holds it. */
  async claim(campaignId: string): Promise<Claim> {
    const { holder: found, spare } = await this.slotOf(campaignId);
    if (found && !found.stale && !this.replace) return { kind: 'held', holder: found };
    if (found && !found.stale) {
      await call('disableWebhook', this.baseUrl, () =>
        disableWebhook(this.client, { campaign_id: campaignId, webhook_id: found.id }),
      );
    }
    // What is given back at exit: the user's webhook, displaced now or by the stale relay.
    const holder = found?.stale ? found.stale.displaced : found;
    const target = {
      campaign_id: campaignId,
      webhook_url: holder ? `${this.relay.url}?displaced=${encodeURIComponent(holder.id)}` : this.relay.url,
      secret: this.relay.secret,
    };
    try {
      let webhookId: string;
      if (found?.stale) {
        // The dead relay's webhook holds the slot: repointed here, its ID kept.
        webhookId = (await createWebhook(this.client, { ...target, replace: true })).webhook_id;
      } else if (spare) {
        webhookId = await this.reuse(campaignId, spare, target);
      } else {
        webhookId = (await createWebhook(this.client, target)).webhook_id;
      }
      const lease: Lease = { campaignId, webhookId, displaced: holder, staleRelay: found?.stale ? found.url : null };
      this.leases.set(campaignId, lease);
      return { kind: 'leased', lease };
    } catch (error) {
      // Registered meanwhile by someone else (another listen reusing the same relay webhook,
      // say): theirs stays, as if it had been there first.
      if (!holder && (isApiError(error, 'WEBHOOK_SLOT_TAKEN') || isApiError(error, 'DUPLICATE_WEBHOOK'))) {
        const id = String((error.details as { webhook_id?: unknown } | undefined)?.webhook_id ?? '');
        return { kind: 'held', holder: { id, url: 'another receiver' } };
      }
      if (holder) await this.reEnable(campaignId, holder.url);
      throw error;
    }
  }

  /**
   * Re-enables a relay webhook an earlier `listen` disabled (registering its URL again), then
   * repoints it at this relay with this session's secret. Between the two, the slot points at
   * the old relay, which no longer answers: a delivery made then fails and is retried, as one
   * to any receiver that is down. Should the repoint fail, the webhook is disabled again.
   */
  private async reuse(
    campaignId: string,
    spare: { id: string; url: string },
    target: { campaign_id: string; webhook_url: string; secret: string },
  ): Promise<string> {
    await createWebhook(this.client, { campaign_id: campaignId, webhook_url: spare.url });
    try {
      return (await createWebhook(this.client, { ...target, replace: true })).webhook_id;
    } catch (error) {
      await disableWebhook(this.client, { campaign_id: campaignId, webhook_id: spare.id }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Gives every slot back; returns what could not be restored, one line each. A slot whose
   * giving back fails for a passing reason (the server unreachable for a moment, a 429 whose
   * `Retry-After` is within the wait, a 5xx other than the permanent 500s: `passing`) is
   * given back again, from the start, after each of `releaseWaitsMs` (the SDK already repeats
   * each of its requests once after a blip): three times within about two seconds. Each step
   * is safe to repeat: disabling a disabled webhook, and registering again a URL already
   * re-enabled, are done. Each request has `releaseCallMs` (the SDK's own repeat included).
   * Once a slot has failed so every time, or a request had no answer in time, the server is
   * taken to be down: the others are tried once each, and said.
   *
   * When `giveUp` aborts (a further Ctrl-C), the request under way and any wait end at once,
   * and every slot not given back yet is named, with what is left of it (`givenUp`).
   */
  async releaseAll(giveUp?: AbortSignal): Promise<string[]> {
    const problems: string[] = [];
    let serverDown = false;
    const options = { timeoutMs: releaseCallMs, ...(giveUp && { signal: giveUp }) };
    for (const lease of [...this.leases.values()]) {
      const step: Step = { op: 'disableWebhook', what: `disable webhook ${lease.webhookId}` };
      for (let attempt = 0; ; attempt++) {
        if (giveUp?.aborted) {
          problems.push(givenUp(lease, step));
          break;
        }
        try {
          await this.release(lease, step, options);
          this.leases.delete(lease.campaignId);
          break;
        } catch (error) {
          if (giveUp?.aborted) continue;
          const wait = releaseWaitsMs[attempt];
          if (!serverDown && wait !== undefined && passing(error, wait)) {
            await delay(wait, ...(giveUp ? [giveUp] : []));
            continue;
          }
          if (error instanceof OcsTimeoutError || passing(error, Number.POSITIVE_INFINITY)) serverDown = true;
          const said = firstLine(describeFailure(step.op, this.baseUrl, error));
          problems.push(`campaign ${lease.campaignId}: could not ${step.what}: ${said}`);
          break;
        }
      }
    }
    return problems;
  }

  /** Gives one slot back; `step` says the step under way, for a failure's line. */
  private async release(lease: Lease, step: Step, options: CallOptions): Promise<void> {
    Object.assign(step, { op: 'disableWebhook', what: `disable webhook ${lease.webhookId}` });
    await disableWebhook(this.client, { campaign_id: lease.campaignId, webhook_id: lease.webhookId }, options);
    if (!lease.displaced) return;
    Object.assign(step, { op: 'listWebhooks', what: `read its webhooks to re-enable ${lease.displaced.url}` });
    const back = await giveBackTo(lease, await this.webhooksOf(lease.campaignId, options));
    if (back) {
      Object.assign(step, { op: 'createWebhook', what: `re-enable ${back.url} (webhook ${back.id})` });
      await this.giveBack(lease, back.url, options);
    }
  }

  /**
   * Re-enables `url`, what `lease` gives the slot back to. Should the slot be taken
   * (`WEBHOOK_SLOT_TAKEN`), it depends by whom:
   * - by this lease's own webhook (another listen stopping at the same moment handed it back
   *   here), or by a relay whose listen was killed or is stopping too: that one is disabled,
   *   and `url` registered once more;
   * - by a running listen's relay, or when `url` is itself another listen's relay: done, as
   *   the slot is that listen's to give back, along the same chain;
   * - by anything else (a user's webhook registered meanwhile): refused, and said.
   */
  private async giveBack(lease: Lease, url: string, options: CallOptions): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await this.reEnable(lease.campaignId, url, options);
        return;
      } catch (error) {
        if (!isApiError(error, 'WEBHOOK_SLOT_TAKEN') || tries > 1) throw error;
        const holderId = (error.details as { webhook_id?: unknown } | undefined)?.webhook_id;
        const holder = (await this.webhooksOf(lease.campaignId, options)).find(
          (webhook) => webhook.webhook_id === holderId,
        );
        if (!holder) throw error;
        const state = relayMarker(holder.webhook_url) ? await relayState(holder.webhook_url) : null;
        if (holder.webhook_id === lease.webhookId || (state !== null && state !== 'alive')) {
          await disableWebhook(this.client, { campaign_id: lease.campaignId, webhook_id: holder.webhook_id }, options);
        } else if (state === 'alive' || relayMarker(url)) {
          return;
        } else {
          throw error;
        }
      }
    }
  }

  /** The campaign's webhooks; the SDK's error as it came (releaseAll tells a passing one). */
  private webhooksOf(campaignId: string, options: CallOptions = {}) {
    return paginate(this.client, listWebhooks, { campaign_id: campaignId }, options).toArray({ limit: 500 });
  }

  private async slotOf(campaignId: string): Promise<Slot> {
    // An unknown campaign comes back as the API's error, for the caller to say which campaign
    // and what to do; any other failure as one line naming the operation.
    const webhooks = await this.webhooksOf(campaignId).catch((error: unknown) => {
      throw isApiError(error, 'CAMPAIGN_NOT_FOUND') ? error : describeFailure('listWebhooks', this.baseUrl, error);
    });
    const spare = await spareRelay(webhooks);
    const slot: Slot = { holder: null, spare: spare ? { id: spare.webhook_id, url: spare.webhook_url } : null };
    const enabled = webhooks.find((webhook) => webhook.enabled);
    if (!enabled) return slot;
    const holder: Holder = { id: enabled.webhook_id, url: enabled.webhook_url };
    const stale = relayMarker(enabled.webhook_url);
    // A stopping listen's relay is not stale: that listen disables its webhook (by ID) next.
    if (stale && (await relayState(enabled.webhook_url)) === 'gone') {
      const displaced = webhooks.find((webhook) => webhook.webhook_id === stale.displacedId && !webhook.enabled);
      holder.stale = { displaced: displaced ? { id: displaced.webhook_id, url: displaced.webhook_url } : null };
    }
    slot.holder = holder;
    return slot;
  }

  /**
   * Registering a disabled webhook's URL again re-enables it, its secret kept (spec section 3).
   * Already active (`DUPLICATE_WEBHOOK`) is done: another listen stopping at the same moment
   * followed the same chain and re-enabled it first.
   */
  private async reEnable(campaignId: string, url: string, options: CallOptions = {}): Promise<void> {
    await createWebhook(this.client, { campaign_id: campaignId, webhook_url: url }, options).catch((error: unknown) => {
      if (!isApiError(error, 'DUPLICATE_WEBHOOK')) throw error;
    });
  }
}

/** The waits before giving a slot back again after a passing failure (releaseAll). */
const releaseWaitsMs = [250, 1000];

/**
 * How long each request of giving a slot back may take, the SDK's own repeat included: a
 * server that accepts the connection but does not answer holds the exit this long per slot
 * (then it is taken to be down), not the 30 s of a command's call.
 */
const releaseCallMs = 5000;

/** The per-call options of the requests giving a slot back. */
interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The step of giving a slot back under way: the SDK operation, and what it does, for a line. */
interface Step {
  op: 'disableWebhook' | 'listWebhooks' | 'createWebhook';
  what: string;
}

/**
 * A failure that may be gone `waitMs` later, as the SDK's own rules (src/retry.ts of @ocs/sdk)
 * tell one: no answer (a connection refused or reset, as while the server restarts; not a
 * timeout, already waited out), 408, a 429 whose `Retry-After` is not longer than the wait,
 * a 500 `INTERNAL_ERROR` (the document's other 500 codes each name a state that a repeat
 * cannot change), 502, 503 and 504.
 */
function passing(error: unknown, waitMs: number): boolean {
  if (error instanceof OcsConnectionError) return true;
  if (!(error instanceof OcsApiError)) return false;
  switch (error.status) {
    case 408:
    case 502:
    case 503:
    case 504:
      return true;
    case 429:
      return error.retryAfter === undefined || error.retryAfter * 1000 <= waitMs;
    case 500:
      return error.code === 'INTERNAL_ERROR';
    default:
      return false;
  }
}

/**
 * What is left of a slot that a further Ctrl-C gave up giving back. Before its relay
 * webhook was disabled, the slot is the dead relay's, which the next `listen` on the
 * campaign takes back (and re-enables what it had displaced). After, the slot is empty and
 * the webhook it had displaced stays disabled: a `listen` finds its way back to that webhook
 * only from a relay in the slot; registering its URL again re-enables it, its secret kept.
 */
function givenUp(lease: Lease, step: Step): string {
  if (step.op === 'disableWebhook') {
    const displaced = lease.displaced ? ` and re-enables ${lease.displaced.url}` : '';
    return `campaign ${lease.campaignId}: gave up giving its slot back (its relay webhook ${lease.webhookId} holds it; the next ocs listen on it takes it back${displaced})`;
  }
  const displaced = lease.displaced ? `${lease.displaced.url} (webhook ${lease.displaced.id})` : 'its webhook';
  return `campaign ${lease.campaignId}: gave up before re-enabling ${displaced}, which stays disabled until its URL is registered again`;
}

/** What the slot's bookkeeping reads of a campaign's webhooks (listWebhooks' items). */
interface Webhook {
  webhook_id: string;
  webhook_url: string;
  enabled: boolean;
}

/**
 * What a lease gives the slot back to, read from the webhooks as they are now (a webhook may
 * have been repointed since the lease began). A `listen --replace` may borrow the slot from
 * another running `listen`, whose relay it then displaced; they may stop in any order:
 * - the slot is held by the relay of another `listen` that still runs (it displaced this
 *   one, or one that displaced this one): nothing, as that one gives the slot back when it
 *   stops, along the same chain (to this relay, or past it, below);
 * - the displaced webhook is a relay whose `listen` has stopped or is stopping (it no longer
 *   answers, or says it is stopping), or this lease's own: what that relay had displaced,
 *   following the chain, so that the user's own webhook comes back rather than a relay
 *   nobody listens on.
 */
async function giveBackTo(lease: Lease, webhooks: readonly Webhook[]): Promise<{ id: string; url: string } | null> {
  for (const webhook of webhooks) {
    if (
      webhook.enabled &&
      webhook.webhook_id !== lease.webhookId &&
      relayMarker(webhook.webhook_url) &&
      (await relayState(webhook.webhook_url)) === 'alive'
    ) {
      return null;
    }
  }
  const passed = new Set<string>();
  let id = lease.displaced?.id ?? null;
  while (id !== null && !passed.has(id)) {
    passed.add(id);
    const webhook = webhooks.find((candidate) => candidate.webhook_id === id);
    if (!webhook) return null;
    const relay = relayMarker(webhook.webhook_url);
    const live = relay && id !== lease.webhookId && (await relayState(webhook.webhook_url)) === 'alive';
    if (!relay || live) return { id, url: webhook.webhook_url };
    id = relay.displacedId;
  }
  return null;
}

/**
 * A relay webhook to reuse: disabled, its `listen` stopped (its relay no longer answers: a
 * running or stopping `listen` whose relay another displaced still needs it), and named as displaced by
 * no webhook, whose way back to the user's webhook would be lost if it were repointed. The
 * latest, should runs of an older `ocs`, which made a new one each time, have left several.
 */
async function spareRelay(webhooks: readonly Webhook[]): Promise<Webhook | null> {
  const named = new Set(webhooks.map((webhook) => relayMarker(webhook.webhook_url)?.displacedId));
  for (const webhook of [...webhooks].reverse()) {
    if (webhook.enabled || !relayMarker(webhook.webhook_url) || named.has(webhook.webhook_id)) continue;
    // A stopping listen's webhook is not spare: that listen disables it (by ID) next.
    if ((await relayState(webhook.webhook_url)) === 'gone') return webhook;
  }
  return null;
}

/**
 * The marker of a relay webhook of `ocs listen`: a loopback URL whose path starts with the
 * relay's prefix (relay.ts). Returns the webhook it displaced, if any, or null for another URL.
 */
function relayMarker(url: string): { displacedId: string | null } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (!loopback || !parsed.pathname.startsWith(relayPathPrefix)) return null;
  return { displacedId: parsed.searchParams.get('displaced') };
}
