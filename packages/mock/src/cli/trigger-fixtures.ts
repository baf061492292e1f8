/**
 * What `ocs trigger prospect_response` needs before a reply can be simulated: a campaign
 * that writes on the channel, and a lead of it that was written to and never answered (a
 * fresh lead, so that the reply is its first and is always delivered: section 6 rule 4).
 */
import {
  advanceSandboxClock,
  createCampaign,
  createLead,
  getCampaign,
  listAccounts,
  listCampaigns,
  listSandboxMessages,
  paginate,
  replaceSenders,
  updateCampaign,
  type OcsClient,
} from '@ocs/sdk';
import { CliFailure } from '@ocs/server/cli-kit';
import { campaignNotFound } from './campaign-option.ts';
import { call, describeFailure, isApiError } from './connection.ts';
import type { Interruption } from './interruption.ts';

export type Channel = 'email' | 'linkedin';

/** The campaign `ocs trigger` creates (once) when no `--campaign` is given. */
export const triggerCampaignName = 'ocs trigger';

/** Sandbox days the clock is moved, one at a time, for the sequence to reach the lead. */
const maxDays = 14;

export interface Target {
  campaign: { id: string; name: string };
  created: boolean;
  /** The "ocs trigger" campaign is activated once it has a lead (preflight refuses an empty one). */
  activate: boolean;
}

export async function triggerCampaign(
  client: OcsClient,
  baseUrl: string,
  campaignId: string | undefined,
  progress: Interruption,
): Promise<Target> {
  if (campaignId) {
    const found = await getCampaign(client, { campaign_id: campaignId }).catch((error: unknown) => {
      if (isApiError(error, 'CAMPAIGN_NOT_FOUND') || isApiError(error, 'NOT_FOUND')) {
        throw new CliFailure(campaignNotFound(campaignId, baseUrl));
      }
      throw describeFailure('getCampaign', baseUrl, error);
    });
    if (!found.campaign.is_active) {
      throw new CliFailure(
        `campaign ${campaignId} is not active, so its sequence writes to no one; activate it or omit --campaign.`,
      );
    }
    return { campaign: found.campaign, created: false, activate: false };
  }
  const campaigns = await call('listCampaigns', baseUrl, () =>
    paginate(client, listCampaigns).toArray({ limit: 10_000 }),
  );
  const existing = campaigns.find((campaign) => campaign.name === triggerCampaignName);
  if (existing) {
    // Made by a run that failed between the two steps of its creation: without senders its
    // sequence writes to no one, so every later run would wait 14 sandbox days for nothing.
    if (!existing.enabled_accounts?.length) {
      progress.checkpoint();
      await assignSenders(client, baseUrl, existing.id, await pickSenders(client, baseUrl));
      progress.did('senders', `gave the "${existing.name}" campaign (${existing.id}) its senders`);
    }
    return { campaign: existing, created: false, activate: !existing.is_active };
  }
  progress.checkpoint();
  const created = await createTriggerCampaign(client, baseUrl);
  progress.did('campaign', `created the "${created.name}" campaign (${created.id}) with its senders`);
  return { campaign: created, created: true, activate: true };
}

/**
 * One email, then a LinkedIn connection request with a note: both channels written to on
 * day 0. Left inactive: it is activated once its first lead is in. One step for Ctrl-C;
 * a failure between the campaign and its senders is mended by the next run (above).
 */
async function createTriggerCampaign(client: OcsClient, baseUrl: string): Promise<{ id: string; name: string }> {
  const senders = await pickSenders(client, baseUrl);
  const { campaign_id: createdId } = await call('createCampaign', baseUrl, () =>
    createCampaign(client, {
      name: triggerCampaignName,
      sequence: {
        variation_a: [
          { id: 1, type: 'email', subject: 'Hello {first_name}', content: 'Hi {first_name}, worth a chat?', delay: 0 },
          { id: 2, type: 'linkedin_connection', message: 'Hi {first_name}, happy to connect.', delay: 0 },
          { id: 3, type: 'conditional', delay: 1, branches: { yes: [], no: [] } },
        ],
      },
    }),
  );
  // The document allows a null ID here; a created campaign always has one.
  if (!createdId) throw new CliFailure('createCampaign answered without a campaign_id.');
  await assignSenders(client, baseUrl, createdId, senders);
  return { id: createdId, name: triggerCampaignName };
}

/** A connected email and LinkedIn account, each the one sending for the fewest campaigns. */
async function pickSenders(client: OcsClient, baseUrl: string): Promise<string[]> {
  const accounts = await call('listAccounts', baseUrl, () => paginate(client, listAccounts).toArray({ limit: 500 }));
  const pick = (platform: Channel) =>
    accounts
      .filter((a) => a.platform === platform && a.status === 'connected')
      .sort((a, b) => (a.campaign_ids?.length ?? 0) - (b.campaign_ids?.length ?? 0))[0];
  const email = pick('email');
  const linkedin = pick('linkedin');
  if (!email || !linkedin) {
    throw new CliFailure(
      'the organization needs a connected email and a connected LinkedIn account to send from; pass --campaign to use one of yours.',
    );
  }
  return [email.id, linkedin.id];
}

async function assignSenders(client: OcsClient, baseUrl: string, campaignId: string, accountIds: string[]) {
  await call('replaceSenders', baseUrl, () =>
    replaceSenders(client, { campaign_id: campaignId, account_ids: accountIds }),
  );
}

/** A new lead of the campaign, moved along the sandbox clock until the sequence wrote to it on `channel`. */
export async function contactedLead(
  client: OcsClient,
  baseUrl: string,
  campaignId: string,
  channel: Channel,
  activate: boolean,
  progress: Interruption,
): Promise<{ id: string; email: string }> {
  progress.checkpoint();
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await call('createLead', baseUrl, () =>
    createLead(client, {
      email: `trigger-${tag}@ocs-trigger.example`,
      first_name: 'Trigger',
      last_name: tag,
      company: 'OCS Trigger',
      linkedin_profile: `https://www.linkedin.com/in/ocs-trigger-${tag}`,
      campaign_id: campaignId,
    }),
  );
  const lead = { id: created.lead.id, email: created.lead.email ?? '' };
  progress.did('lead', `created lead ${lead.email} (${lead.id}) in campaign ${campaignId}`);
  if (activate) {
    progress.checkpoint();
    await call('updateCampaign', baseUrl, () => updateCampaign(client, { campaign_id: campaignId, is_active: true }));
    progress.did('activated', `activated campaign ${campaignId}`);
  }
  const written = async () => {
    const { messages } = await call('listSandboxMessages', baseUrl, () =>
      listSandboxMessages(client, { campaign_id: campaignId, lead_id: lead.id }),
    );
    return messages.some((message) => message.channel === channel);
  };
  progress.checkpoint();
  await call('advanceSandboxClock', baseUrl, () => advanceSandboxClock(client, { seconds: 1 }));
  progress.did('clock', 'moved the sandbox clock 1 s');
  for (let day = 0; !(await written()); day++) {
    if (day === maxDays) {
      throw new CliFailure(
        `campaign ${campaignId}'s sequence did not write to a new lead on ${channel} within ${maxDays} sandbox days; choose another --channel or --campaign.`,
      );
    }
    progress.checkpoint();
    await call('advanceSandboxClock', baseUrl, () => advanceSandboxClock(client, { days: 1 }));
    progress.did('clock', `moved the sandbox clock 1 s and ${day + 1} day(s)`);
  }
  return lead;
}
