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
import { parseArgs } from 'node:util';
import { type components, listSandboxDeliveries, listWebhooks, type OcsClient, simulateReply } from '@ocs/sdk';
import { CliFailure, parseArgsProblem, UsageError } from '@ocs/server/cli-kit';
import type { CommandIo } from './command-io.ts';
import { checkCampaignIds } from './campaign-option.ts';
import { call, callTimeoutMs, connect, connectionHelp, connectionOptions } from './connection.ts';
import { receiverDeadlineMs } from './receiver-deadline.ts';
import { Interruption } from './interruption.ts';
import { type Channel, contactedLead, triggerCampaign, triggerCampaignName } from './trigger-fixtures.ts';

/**
 * How long to wait for the outcome of the delivery's first attempt once the reply is made: a
 * receiver answering at once is known within a few hundred milliseconds; a slower one is
 * said to be still pending (`ocs listen` prints its answer when it comes).
 */
const outcomeWaitMs = 10_000;
/** How often the campaign's deliveries are read meanwhile. */
const outcomePollMs = 100;

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
${connectionHelp}
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
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
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
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(parseArgsProblem(error));
  }
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
        : `unknown event '${event}'; the API sends one event, prospect_response.`,
    );
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'.`);
  const sentiment = values.sentiment as Sentiment;
  // Own names only: `in` also finds `toString`, `constructor`, `__proto__`.
  if (!Object.hasOwn(replies, sentiment)) {
    throw new UsageError(`--sentiment must be positive, neutral or negative, got '${values.sentiment}'.`);
  }
  const channel = values.channel as Channel;
  if (channel !== 'email' && channel !== 'linkedin') {
    throw new UsageError(`--channel must be email or linkedin, got '${values.channel}'.`);
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
        ? await firstAttempt(client, campaign.id, reply.delivery.delivery_id, () => progress.stopRequested)
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
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

type Delivery = components['schemas']['SandboxDelivery'];
interface Outcome {
  /** The delivery as last read (or as `simulateReply` answered it). */
  delivery: Pick<Delivery, 'status'> & Partial<Delivery>;
  /** Why it could not be read, if it could not. */
  unread?: string;
  /** Whether a Ctrl-C ended the wait. */
  cutShort?: boolean;
}

/**
 * The delivery once its first attempt is settled (`delivered`, or an attempt recorded, or
 * given up), read from the campaign's deliveries every `outcomePollMs` for `outcomeWaitMs` at
 * most, or until `stop()`. The list is oldest first, so the delivery just made is among the
 * last: its tail is read. Not read, the delivery is as `simulateReply` said (`pending`).
 */
async function firstAttempt(
  client: OcsClient,
  campaignId: string,
  deliveryId: string,
  stop: () => boolean,
): Promise<Outcome> {
  const pending = { status: 'pending' } as const;
  const until = Date.now() + outcomeWaitMs;
  // Each read within the wait, give or take a second: a server that stops answering does not
  // hold the command for the client's whole timeout.
  const timeout = () => ({ timeoutMs: Math.max(until - Date.now(), 1000) });
  try {
    const { total } = await listSandboxDeliveries(client, { campaign_id: campaignId, limit: 1 }, timeout());
    const tail = { campaign_id: campaignId, offset: Math.max(0, total - 100), limit: 100 };
    for (;;) {
      const { deliveries } = await listSandboxDeliveries(client, tail, timeout());
      const found = deliveries.find((delivery) => delivery.delivery_id === deliveryId);
      if (!found) return { delivery: pending, unread: "it is not among the campaign's latest deliveries" };
      if (found.status !== 'pending' || found.attempts.length > 0 || Date.now() >= until) return { delivery: found };
      if (stop()) return { delivery: found, cutShort: true };
      await new Promise((resolve) => setTimeout(resolve, outcomePollMs));
    }
  } catch (error) {
    return { delivery: pending, unread: (error as Error).message };
  }
}

/**
 * How the first attempt went, after `delivery <id> `: `delivered (HTTP 200, 7 ms)`;
 * `pending: attempt 1 answered 503; the next is due at ...`; `pending: no answer within 10 s`...
 */
function describeOutcome({ delivery, unread, cutShort }: Outcome): string {
  if (unread !== undefined) return `${delivery.status} (how its first attempt went could not be read: ${unread})`;
  const attempts = delivery.attempts ?? [];
  const last = attempts.at(-1);
  const answered = (attempt: NonNullable<typeof last>) =>
    attempt.status === null ? `failed (${attempt.error ?? 'no answer'})` : `answered ${attempt.status}`;
  switch (delivery.status) {
    case 'delivered': {
      const ok = attempts.find((attempt) => attempt.ok) ?? last;
      return ok ? `delivered (HTTP ${ok.status}, ${ok.duration_ms} ms)` : 'delivered';
    }
    case 'pending':
      if (!last) {
        const waited = cutShort ? 'no answer yet' : `no answer within ${outcomeWaitMs / 1000} s`;
        return `pending: ${waited} from the receiver (ocs listen prints it when it comes)`;
      }
      return `pending: attempt ${last.attempt} ${answered(last)}; next attempt at ${delivery.next_attempt_at ?? 'its retry time'} by the sandbox clock (advancing the clock runs it)`;
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
