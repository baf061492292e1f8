/**
 * `ocs trigger prospect_response`: makes one happen through the sandbox operations, as the
 * Stripe CLI's `trigger` does: a campaign and a lead written to on the channel (found or
 * made, trigger-fixtures.ts), then a reply worded for the sentiment asked for
 * (`simulateReply`), which the server turns into a `prospect_response` for the campaign's
 * webhook (the one `ocs listen` registered, when it runs). It then says how the delivery's
 * first attempt went: `simulateReply` answers the delivery as it was when queued (`pending`,
 * on both servers, ocs-mock included though it attempts it before answering), so the outcome
 * is read from the campaign's deliveries, waited for a few seconds at most.
 */
import {
  type components,
  listSandboxDeliveries,
  listWebhooks,
  type OcsClient,
  OcsRateLimitError,
  type RateLimit,
  simulateReply,
} from '@ocs/sdk';
import { CliFailure, echoed, firstLine, parseCommandLine, UsageError } from '@ocs/server/cli-kit';
import { delay } from '../core/abort.ts';
import type { CommandIo } from './command-io.ts';
import { checkCampaignIds } from './campaign-option.ts';
import { call, callTimeoutMs, connect, connectionHelp, connectionOptions, describeFailure } from './connection.ts';
import { receiverDeadlineMs } from './receiver-deadline.ts';
import { Interruption } from './interruption.ts';
import { type Channel, contactedLead, triggerCampaign, triggerCampaignName } from './trigger-fixtures.ts';

/**
 * How long to wait for the outcome of the delivery's first attempt once the reply is made: a
 * receiver answering at once is known within a few hundred milliseconds; a slower one is
 * said to be still pending (`ocs listen` prints its answer when it comes).
 */
const outcomeWaitMs = 10_000;
/**
 * The waits between two reads of the campaign's deliveries meanwhile: short at first, then
 * `outcomeReadEveryMs`; about 15 reads in the 10 s. Each read counts against the API key's
 * rate limit for the endpoint (100 a minute by default, on both servers), which the user's
 * own scripts share: a tighter poll spent most of it.
 */
const outcomeReadWaitsMs = [100, 200, 400, 800];
const outcomeReadEveryMs = 1000;
/**
 * The reads stop once the key has fewer requests left to the endpoint than this share of its
 * limit (or than `outcomeReadsSpared`, the limit unknown): the rest is left to the user.
 */
const outcomeReadsSparedShare = 0.25;
const outcomeReadsSpared = 25;
/**
 * The largest page of the deliveries list (the API's maximum for it, `limit` 1 to 500). The
 * page read is centred on the newest delivery, so that the one just made is in it though
 * replies made meanwhile, committed with an earlier or a later `created_at`, move it.
 */
const outcomePageSize = 500;

export const triggerUsage = `Usage: ocs trigger prospect_response [options]

Makes a prospect reply in the sandbox, so that the server sends a prospect_response event to
the campaign's webhook (run ocs listen first to receive it). It creates a lead in the
campaign and moves the sandbox clock until the sequence has written to it on the channel,
then says how the delivery's first attempt went (waited for ${outcomeWaitMs / 1000} s at most).
Ctrl-C stops after the step under way (exit code 130), saying what was done.

Options:
  --campaign <id>       an active campaign of yours (default: the "${triggerCampaignName}" campaign,
                        created the first time)
  --sentiment <s>       positive, neutral or negative (default positive)
  --channel <c>         email or linkedin (default email)
${connectionHelp(24)}
  -h, --help            this help
  --version             the version`;

/** Replies the built-in classifier reads as each sentiment. */
const replies = {
  positive: 'Sounds good, tell me more. When are you free next week?',
  neutral: 'Who is this? Please talk to my colleague.',
  negative: 'No thanks, we already have a solution.',
} as const;
type Sentiment = keyof typeof replies;

/** How long to wait for `ocs listen` to register on a campaign just created. */
const webhookWaitMs = 10_000;

export async function trigger(argv: string[], io: CommandIo): Promise<void> {
  const { values, positionals } = parseCommandLine({
    args: argv,
    options: {
      campaign: { type: 'string' },
      sentiment: { type: 'string', default: 'positive' },
      channel: { type: 'string', default: 'email' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', default: false },
      ...connectionOptions,
    },
    allowPositionals: true,
  });
  if (values.help) {
    io.out(triggerUsage);
    return;
  }
  if (values.version) {
    io.out(io.version);
    return;
  }
  const [event, ...extra] = positionals;
  if (event !== 'prospect_response') {
    throw new UsageError(
      event === undefined
        ? 'name the event: ocs trigger prospect_response.'
        : `unknown event '${echoed(event)}'; the API sends one event, prospect_response.`,
    );
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument '${echoed(extra[0] as string)}'.`);
  const sentiment = values.sentiment as Sentiment;
  // Own names only: `in` also finds `toString`, `constructor`, `__proto__`.
  if (!Object.hasOwn(replies, sentiment)) {
    throw new UsageError(`--sentiment must be positive, neutral or negative, got '${echoed(values.sentiment)}'.`);
  }
  const channel = values.channel as Channel;
  if (channel !== 'email' && channel !== 'linkedin') {
    throw new UsageError(`--channel must be email or linkedin, got '${echoed(values.channel)}'.`);
  }
  checkCampaignIds(values.campaign === undefined ? undefined : [values.campaign]);
  const { client, baseUrl } = connect(values);

  const progress = new Interruption('no reply was simulated, so no prospect_response was sent');
  try {
    const { campaign, created, activate } = await triggerCampaign(client, baseUrl, values.campaign, progress);
    if (created) await waitForWebhook(client, baseUrl, campaign.id, progress);
    const lead = await contactedLead(client, baseUrl, campaign.id, channel, activate, progress);
    progress.checkpoint();
    // The last step: once the reply is simulated the event is on its way, and the command done.
    // @ocs/mock answers once the delivery was attempted, which may take the receiver's whole
    // deadline (`ocs listen` forwards to the application and waits for it): a timeout here
    // would report a reply that was made, and a second run would send a second event.
    const { reply } = await call('simulateReply', baseUrl, () =>
      simulateReply(
        client,
        { campaign_id: campaign.id, lead_id: lead.id, channel, message: replies[sentiment] },
        { timeoutMs: callTimeoutMs + receiverDeadlineMs },
      ),
    );
    const what = `${reply.sentiment} reply on ${channel} from ${lead.email} (lead ${lead.id}) in campaign "${campaign.name}" (${campaign.id})`;
    if (!reply.delivery) {
      throw new CliFailure(
        `${what}: no prospect_response sent: ${reply.not_delivered_reason ?? 'no reason given'}; run ocs listen first.`,
      );
    }
    // The event is on its way: what is left is reading how its first attempt went, which a
    // Ctrl-C cuts short (the line is printed all the same) rather than stops.
    const outcome =
      reply.delivery.status === 'pending'
        ? await firstAttempt(client, baseUrl, campaign.id, reply.delivery.delivery_id, progress.signal)
        : { delivery: reply.delivery };
    io.out(`Triggered prospect_response: ${what}; delivery ${reply.delivery.delivery_id} ${describeOutcome(outcome)}.`);
  } finally {
    progress.close();
  }
}

/** A campaign made a moment ago has no webhook until `ocs listen` sees it (it looks every 2 s). */
async function waitForWebhook(
  client: Parameters<typeof listWebhooks>[0],
  baseUrl: string,
  campaignId: string,
  progress: Interruption,
) {
  const until = Date.now() + webhookWaitMs;
  while (Date.now() < until) {
    progress.checkpoint();
    const { webhooks } = await call('listWebhooks', baseUrl, () => listWebhooks(client, { campaign_id: campaignId }));
    if (webhooks.some((webhook) => webhook.enabled)) return;
    // A Ctrl-C ends the wait at once: the checkpoint above then stops the command.
    await delay(250, progress.signal);
  }
}

type Delivery = components['schemas']['SandboxDelivery'];
export interface Outcome {
  /** The delivery as last read (or as `simulateReply` answered it). */
  delivery: Pick<Delivery, 'status'> & Partial<Delivery>;
  /** Why it could not be read, if it could not. */
  unread?: string;
  /**
   * Why the reads stopped before the outcome was known and the wait was over: a Ctrl-C, or
   * the key's requests left to the endpoint (`remaining`) running low.
   */
  ended?: { by: 'ctrl-c' } | { by: 'rate-limit'; remaining: number };
}

/**
 * The delivery once its first attempt is settled (`delivered`, or an attempt recorded, or
 * given up), read from the campaign's deliveries for `outcomeWaitMs` at most, at the waits of
 * `outcomeReadWaitsMs`, until `stop` aborts, or until the key's rate limit for the endpoint
 * runs low. The list is oldest first, so the delivery just made is among the last: a page
 * around its tail is read. Not read, the delivery is as `simulateReply` said (`pending`).
 */
async function firstAttempt(
  client: OcsClient,
  baseUrl: string,
  campaignId: string,
  deliveryId: string,
  stop: AbortSignal,
): Promise<Outcome> {
  let delivery: Outcome['delivery'] = { status: 'pending' };
  const until = Date.now() + outcomeWaitMs;
  // Each read within the wait, give or take a second: a server that stops answering does not
  // hold the command for the client's whole timeout. A Ctrl-C ends a read at once too; one
  // that came before (during the reply) leaves one read, for the line to say what it can.
  const signal = stop.aborted ? {} : { signal: stop };
  const options = () => ({ timeoutMs: Math.max(until - Date.now(), 1000), ...signal });
  /** The key's requests left to the endpoint, when they run low; else undefined. */
  const low = (rateLimit: RateLimit | undefined) => {
    const { limit, remaining } = rateLimit ?? {};
    if (remaining === undefined) return undefined;
    const spared = limit === undefined ? outcomeReadsSpared : Math.ceil(limit * outcomeReadsSparedShare);
    return remaining < spared ? remaining : undefined;
  };
  try {
    const first = await listSandboxDeliveries(client, { campaign_id: campaignId, limit: 1 }, options());
    const tail = {
      campaign_id: campaignId,
      offset: Math.max(0, first.total - outcomePageSize / 2),
      limit: outcomePageSize,
    };
    let remaining = low(first.rateLimit);
    for (let read = 0; ; read++) {
      if (remaining !== undefined) return { delivery, ended: { by: 'rate-limit', remaining } };
      const page = await listSandboxDeliveries(client, tail, options());
      const found = page.deliveries.find((candidate) => candidate.delivery_id === deliveryId);
      if (!found) return { delivery, unread: "it is not among the campaign's latest deliveries" };
      delivery = found;
      if (found.status !== 'pending' || found.attempts.length > 0 || Date.now() >= until) return { delivery };
      remaining = low(page.rateLimit);
      await delay(Math.min(outcomeReadWaitsMs[read] ?? outcomeReadEveryMs, until - Date.now()), stop);
      if (stop.aborted) return { delivery, ended: { by: 'ctrl-c' } };
    }
  } catch (error) {
    if (stop.aborted) return { delivery, ended: { by: 'ctrl-c' } };
    if (error instanceof OcsRateLimitError) {
      const wait = error.retryAfter ?? error.rateLimit.reset;
      return { delivery, unread: `rate-limited${wait === undefined ? '' : ` for ${wait} s more`}` };
    }
    return { delivery, unread: firstLine(describeFailure('listSandboxDeliveries', baseUrl, error)) };
  }
}

/** What becomes of a retry: the server sends it to the campaign's webhook as it is then. */
const retryGoesTo =
  'sent to whatever webhook the campaign has then: keep ocs listen running until then, or the retry finds none and the event is dropped';

/**
 * How the first attempt went, after `delivery <id> `: `delivered (HTTP 200, 7 ms)`;
 * `pending: attempt 1 answered 503; next attempt at ...`; `pending: no answer within 10 s`...
 */
export function describeOutcome({ delivery, unread, ended }: Outcome): string {
  if (unread !== undefined) {
    return `${delivery.status} (how its first attempt went could not be read: ${unread}; ocs listen prints it when it comes)`;
  }
  const attempts = delivery.attempts ?? [];
  const last = attempts.at(-1);
  const answered = (attempt: NonNullable<typeof last>) =>
    attempt.status === null ? `failed (${attempt.error ?? 'no answer'})` : `answered ${attempt.status}`;
  switch (delivery.status) {
    case 'delivered': {
      const ok = attempts.find((attempt) => attempt.ok) ?? last;
      return ok ? `delivered (HTTP ${ok.status}, ${ok.duration_ms} ms)` : 'delivered';
    }
    case 'pending': {
      if (last) {
        return `pending: attempt ${last.attempt} ${answered(last)}; next attempt at ${delivery.next_attempt_at ?? 'its retry time'} by the sandbox clock (advancing the clock runs it, ${retryGoesTo})`;
      }
      const within = ended ? 'yet' : `within ${outcomeWaitMs / 1000} s`;
      // Claimed by the server (`attempts_made` counts it), the attempt waits for the receiver;
      // not claimed yet, the server has not attempted it.
      const waiting =
        delivery.attempts_made === undefined
          ? `no outcome read ${within}`
          : delivery.attempts_made === 0
            ? `not attempted by the server ${within}`
            : `no answer ${within} from the receiver`;
      const spared =
        ended?.by === 'rate-limit'
          ? `; stopped reading early, to leave the API key's rate limit to you (${ended.remaining} requests left to that endpoint for now)`
          : '';
      return `pending: ${waiting} (ocs listen prints it when it comes)${spared}`;
    }
    case 'failed':
      return last
        ? `failed: attempt ${last.attempt} ${answered(last)}, its last`
        : 'failed: the campaign had no enabled webhook when it was attempted (is ocs listen still running?)';
    case 'cancelled':
      return 'cancelled: the lead was deleted before it was sent';
    default:
      return delivery.status;
  }
}
