/**
 * An integrator's code written against @ocs/sdk, the subject of the mock's own tests: it
 * launches a campaign, exports leads page by page, treats a missing campaign as null, and
 * receives `prospect_response` webhooks (verified, deduplicated). Nothing here knows about
 * the mock.
 */
import {
  createCampaign,
  createLead,
  getCampaign,
  listLeads,
  OcsNotFoundError,
  type OcsClient,
  paginate,
  replaceSenders,
  updateCampaign,
  type components,
} from '@ocs/sdk';
import { createDeduplicator, type ProspectResponseEvent, verifyAndParse } from '@ocs/sdk/webhooks';

type Sequence = components['schemas']['Sequence'];

export interface Launch {
  name: string;
  sequence: Sequence;
  senderIds: string[];
  leads: Array<{ email: string; first_name: string; company: string }>;
  /** Reused on a retry of the whole launch, so the campaign is created once. */
  idempotencyKey?: string;
}

/** Creates, staffs, fills and activates a campaign; returns its ID. */
export async function launchCampaign(client: OcsClient, launch: Launch): Promise<string> {
  const created = await createCampaign(
    client,
    { name: launch.name, sequence: launch.sequence },
    { idempotencyKey: launch.idempotencyKey },
  );
  // The document leaves campaign_id nullable; the service always sends it on a 201.
  const campaign_id = created.campaign_id;
  if (!campaign_id) throw new Error(`createCampaign answered no campaign_id (request ${created.requestId})`);
  await replaceSenders(client, { campaign_id, account_ids: launch.senderIds });
  for (const lead of launch.leads) await createLead(client, { ...lead, campaign_id });
  await updateCampaign(client, { campaign_id, is_active: true });
  return campaign_id;
}

/** Every lead's email, in pages of `pageSize`. */
export async function exportLeadEmails(client: OcsClient, pageSize = 25): Promise<string[]> {
  const emails: string[] = [];
  for await (const lead of paginate(client, listLeads, {}, { pageSize })) emails.push(lead.email ?? '');
  return emails;
}

/** The campaign's name, or null when it does not exist. */
export async function campaignName(client: OcsClient, campaignId: string): Promise<string | null> {
  try {
    return (await getCampaign(client, { campaign_id: campaignId })).campaign.name;
  } catch (error) {
    if (error instanceof OcsNotFoundError && error.code === 'CAMPAIGN_NOT_FOUND') return null;
    throw error;
  }
}

/** A Fetch handler receiving `prospect_response`: 401 when unsigned, each event handled once. */
export function webhookReceiver(secret: string, onEvent: (event: ProspectResponseEvent) => void) {
  const dedupe = createDeduplicator();
  return async (request: Request): Promise<Response> => {
    let event: ProspectResponseEvent;
    try {
      event = await verifyAndParse(request, { secret });
    } catch {
      return new Response('bad signature', { status: 401 });
    }
    await dedupe.once(event, async () => onEvent(event));
    return new Response(null, { status: 204 });
  };
}
