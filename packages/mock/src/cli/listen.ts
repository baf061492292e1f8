/**
 * `ocs listen --forward-to <url>`: `prospect_response` events of the server's campaigns,
 * forwarded to a receiver on this machine, with a signing secret for the session.
 *
 * How events reach localhost (docs/decisions/0013-local-webhook-tools.md): a loopback
 * relay (relay.ts) is registered as the campaigns' webhook, which the server accepts only
 * with `--allow-insecure-webhooks`; the server's own delivery (signing, retries, the
 * attempt header) is what the receiver gets. Slots are borrowed and given back (slot-lease.ts).
 */
import { randomBytes } from 'node:crypto';
import { listCampaigns, paginate } from '@ocs/sdk';
import { CliFailure, echoed, parseCommandLine, UsageError } from '@ocs/server/cli-kit';
import type { CommandIo } from './command-io.ts';
import { campaignNotFound, checkCampaignIds } from './campaign-option.ts';
import { call, connect, connectionHelp, connectionOptions, describeFailure, isApiError } from './connection.ts';
import { Interrupted } from './interruption.ts';
import { type Forwarded, startRelay } from './relay.ts';
import { SlotLeases } from './slot-lease.ts';

export const listenUsage = `Usage: ocs listen --forward-to <url> [options]

Forwards every prospect_response event of the server's campaigns to a receiver on this
machine, signed (X-Signature-256) with a secret printed at start, and prints one line per
delivery. The server must accept loopback receivers: ocs-server serve --allow-insecure-webhooks,
or ocs-mock --allow-insecure-webhooks. Ctrl-C stops and gives every webhook slot back, then
waits for the deliveries being forwarded; a second Ctrl-C quits without that wait (exit code
130), and a third, while slots are still being given back, gives up on them and names them.

Options:
  --forward-to <url>  the receiver, e.g. http://localhost:3000/webhooks
  --campaign <id>     only this campaign (repeatable); default: every campaign, new ones too
  --replace           borrow slots that a webhook already holds: it is disabled while
                      listening and re-enabled, secret kept, at exit (default: leave it)
${connectionHelp(22)}
  -h, --help          this help
  --version           the version`;

/** How often new campaigns are looked for (without --campaign). */
const pollMs = 2000;

export async function listen(argv: string[], io: CommandIo): Promise<void> {
  const { values } = parseCommandLine(
    {
      args: argv,
      options: {
        'forward-to': { type: 'string' },
        campaign: { type: 'string', multiple: true },
        replace: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
        ...connectionOptions,
      },
    },
    'ocs listen takes options only',
  );
  if (values.help) {
    io.out(listenUsage);
    return;
  }
  if (values.version) {
    io.out(io.version);
    return;
  }
  const forwardTo = values['forward-to'];
  if (!forwardTo) throw new UsageError('--forward-to is required, e.g. --forward-to http://localhost:3000/webhooks.');
  const target = URL.parse(forwardTo);
  if (!target || !/^https?:$/.test(target.protocol)) {
    throw new UsageError(`--forward-to must be an http(s) URL, got '${echoed(forwardTo)}'.`);
  }
  // fetch refuses such a URL at every delivery; and the password would be printed on each line.
  if (target.username || target.password) {
    throw new UsageError('--forward-to must carry no user or password (a receiver checks the signature, not a login).');
  }
  checkCampaignIds(values.campaign);
  const { client, baseUrl } = connect(values);

  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  const relay = await startRelay({
    secret,
    forwardTo,
    onForwarded: (delivery) => io.out(deliveryLine(delivery)),
    onRefused: (reason) => io.out(`${new Date().toISOString()}  ${reason}`),
  });
  const leases = new SlotLeases(client, baseUrl, { url: relay.url, secret }, values.replace);
  const seen = new Set<string>();
  let stopping = false;
  // Listened for from the start: Ctrl-C while slots are being claimed still gives them back.
  let interrupted = false;
  /** The signals so far: the first stops, a second quits once the slots are back, a third gives up on them. */
  let signals = 0;
  /** Aborted by a third signal while the slots are being given back: the slots left are given up. */
  const giveUp = new AbortController();
  /** Set while the slots are back and deliveries in flight are waited for: quits at once. */
  let quitNow: (() => void) | undefined;
  // A closed terminal (SIGHUP) too. A second Ctrl-C while the slots are being given back does
  // not cut that short: it is recorded, and the deliveries in flight are then not waited for;
  // a third gives up on the slots not yet back. Once they are back, a second Ctrl-C stops the
  // wait for deliveries in flight.
  const signalled = new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        signals += 1;
        if (quitNow) {
          quitNow();
          return;
        }
        if (signals === 1) {
          interrupted = true;
          resolve();
        } else if (signals === 2) {
          const { count } = relay.inFlight();
          const then = count === 0 ? '' : `, then quitting without waiting for the ${inFlightText(count)} in flight`;
          io.out(
            `Still giving the webhook slots back${then}; press Ctrl-C again to give up on those not back yet (the next ocs listen takes them back).`,
          );
        } else {
          giveUp.abort();
        }
      });
    }
  });
  let poll: NodeJS.Timeout | undefined;
  /** A look for new campaigns under way: stop() waits for it, so that no slot is taken after release. */
  let looking: Promise<void> = Promise.resolve();

  /**
   * Gives the slots back and closes the relay; every later call is a no-op. The relay closes
   * once the deliveries it is forwarding are answered, so that the server learns how the
   * receiver took each (the receiver may take up to its deadline, 75 s): that wait is said in
   * one line, and a Ctrl-C then quits at once (`Interrupted`, exit code 130), the slots
   * already given back; so does a Ctrl-C pressed while they were being given back. A further
   * Ctrl-C during the giving back gives up on the slots not back yet, naming them (130).
   */
  const stop = async (): Promise<string[]> => {
    if (stopping) return [];
    stopping = true;
    clearTimeout(poll);
    await looking;
    relay.stopAnswering();
    const problems = await leases.releaseAll(giveUp.signal);
    const { count, settledWithinMs } = relay.inFlight();
    const deliveries = inFlightText(count);
    // What the server does with an attempt left unanswered (section 6): it failed, and is
    // retried, to the campaign's webhook at that time: the slots are given back already.
    const unanswered =
      count === 1
        ? `the server then counts its attempt as failed and retries it 15 minutes later by the sandbox clock, sent to whatever webhook the campaign has then: run ocs listen again before advancing the clock, or the retry finds none and the event is dropped`
        : `the server then counts their attempts as failed and retries them 15 minutes later by the sandbox clock, sent to whatever webhook each campaign has then: run ocs listen again before advancing the clock, or the retries find none and the events are dropped`;
    const inFlightQuit = `${deliveries} in flight: ${unanswered.replace(/^the server then/, 'the server')}.`;
    if (giveUp.signal.aborted && problems.length > 0) {
      throw new Interrupted(
        `interrupted while giving the webhook slots back: ${problems.join('; ')}.${count > 0 ? ` Quit with ${inFlightQuit}` : ''}`,
      );
    }
    if (count === 0) {
      await relay.close();
      return problems;
    }
    const given = problems.length > 0 ? `Stopped, but ${problems.join('; ')}.` : 'Webhook slots given back.';
    // A second Ctrl-C came while the slots were being given back: it asked to quit.
    if (signals > 1) throw new Interrupted(`interrupted with ${inFlightQuit} ${given}`);
    io.out(
      `Waiting for ${deliveries} in flight to finish (up to ${Math.ceil(settledWithinMs / 1000)} s), so that the server gets your receiver's answer; press Ctrl-C again to quit now (${unanswered}).`,
    );
    const quit = new Promise<never>((_resolve, reject) => {
      quitNow = () => reject(new Interrupted(`interrupted with ${inFlightQuit} ${given}`));
    });
    try {
      await Promise.race([relay.close(), quit]);
    } finally {
      quitNow = undefined;
    }
    return problems;
  };

  const claim = async (campaignId: string, explicit: boolean) => {
    if (interrupted) return;
    seen.add(campaignId);
    const claimed = await leases.claim(campaignId).catch((error: unknown) => {
      if (isApiError(error, 'INVALID_WEBHOOK_URL')) {
        throw new CliFailure(
          `the server refuses a loopback receiver (INVALID_WEBHOOK_URL): start it with --allow-insecure-webhooks (ocs-server serve --allow-insecure-webhooks, or ocs-mock --allow-insecure-webhooks).`,
        );
      }
      if (isApiError(error, 'CAMPAIGN_NOT_FOUND')) throw new CliFailure(campaignNotFound(campaignId, baseUrl));
      throw describeFailure('createWebhook', baseUrl, error);
    });
    if (claimed.kind === 'held') {
      const line = `campaign ${campaignId}: its webhook slot is held by ${claimed.holder.url} (webhook ${claimed.holder.id}); left alone (pass --replace to borrow it while listening).`;
      if (explicit) throw new CliFailure(line);
      io.out(`skipped ${line}`);
      return;
    }
    const { displaced, staleRelay } = claimed.lease;
    if (staleRelay) {
      io.out(
        `campaign ${campaignId}: took the slot back from ${staleRelay}, left by an ocs listen that did not exit cleanly.`,
      );
    }
    if (displaced) io.out(`campaign ${campaignId}: disabled ${displaced.url} while listening; re-enabled at exit.`);
  };

  const campaignIds = async () =>
    (await call('listCampaigns', baseUrl, () => paginate(client, listCampaigns).toArray({ limit: 10_000 }))).map(
      (campaign) => campaign.id,
    );

  try {
    if (values.campaign) {
      // Each campaign once, whatever its case: a second claim of one slot would take this
      // relay's own webhook for a user's, and leave it enabled at exit.
      for (const id of new Set(values.campaign.map((given) => given.toLowerCase()))) await claim(id, true);
    } else {
      for (const id of await campaignIds()) await claim(id, false);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  if (interrupted) {
    await stop();
    return;
  }
  const scope = values.campaign
    ? `${leases.leases.size} campaign(s)`
    : `every campaign (${leases.leases.size} now, new ones within ${pollMs / 1000} s)`;
  // The URL as parsed, which is where fetch sends: the parser dropped any tab or line break
  // given in it and percent-encoded other controls, so the line stays one line.
  io.out(`Ready: forwarding prospect_response events of ${scope} to ${target.href}
Signing secret for this session (verify X-Signature-256 with it): ${secret}
Ctrl-C to stop; the webhook slots are given back.`);

  if (!values.campaign) {
    const lookAgain = async () => {
      try {
        for (const id of await campaignIds()) if (!seen.has(id) && !stopping && !interrupted) await claim(id, false);
      } catch (error) {
        io.out(`${new Date().toISOString()}  could not look for new campaigns: ${(error as Error).message}`);
      }
      if (!stopping) poll = setTimeout(() => (looking = lookAgain()), pollMs);
    };
    poll = setTimeout(() => (looking = lookAgain()), pollMs);
  }

  await signalled;
  const problems = await stop();
  if (problems.length > 0) throw new CliFailure(`stopped, but ${problems.join('; ')}`);
  io.out('Stopped; webhook slots given back.');
}

/** `1 delivery`, `2 deliveries`. */
function inFlightText(count: number): string {
  return count === 1 ? '1 delivery' : `${count} deliveries`;
}

/** `2026-11-25T06:01:02.345Z  prospect_response  lead maya@acme.com (sequence lead …)  → 200  12 ms` */
export function deliveryLine(d: Forwarded): string {
  const lead = d.leadEmail ? `${d.leadEmail} (sequence lead ${d.sequenceLeadId})` : `sequence lead ${d.sequenceLeadId}`;
  const outcome = d.status === null ? `receiver unreachable (${d.error})` : `${d.status}`;
  const attempt = d.attempt && d.attempt !== '1' ? `  attempt ${d.attempt}` : '';
  return `${d.at.toISOString()}  ${d.event}  lead ${lead}  -> ${outcome}  ${Math.round(d.durationMs)} ms${attempt}`;
}
