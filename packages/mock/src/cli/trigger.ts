/**
 * `ocs trigger prospect_response`: makes one happen through the sandbox operations, as the
 * Stripe CLI's `trigger` does: a campaign and a lead written to on the channel (found or
 * made, trigger-fixtures.ts), then a reply worded for the sentiment asked for
 * (`simulateReply`), which the server turns into a `prospect_response` for the campaign's
 * webhook (the one `ocs listen` registered, when it runs).
 */
import { parseArgs } from 'node:util';
import { listWebhooks, simulateReply } from '@ocs/sdk';
import { CliFailure, parseArgsProblem, UsageError } from '@ocs/server/cli-kit';
import type { CommandIo } from './command-io.ts';
import { checkCampaignIds } from './campaign-option.ts';
import { call, callTimeoutMs, connect, connectionHelp, connectionOptions } from './connection.ts';
import { receiverDeadlineMs } from './receiver-deadline.ts';
import { Interruption } from './interruption.ts';
import { type Channel, contactedLead, triggerCampaign, triggerCampaignName } from './trigger-fixtures.ts';

export const triggerUsage = `Usage: ocs trigger prospect_response [options]

Makes a prospect reply in the sandbox, so that the server sends a prospect_response event to
the campaign's webhook (run ocs listen first to receive it). It creates a lead in the
campaign and moves the sandbox clock until the sequence has written to it on the channel.
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
    io.out(`Triggered prospect_response: ${what}; delivery ${reply.delivery.delivery_id} ${reply.delivery.status}.`);
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
