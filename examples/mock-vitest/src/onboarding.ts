/**
 * An integrator's code: when people sign up for a webinar, add them to the outreach campaign,
 * and when a prospect replies, record the reply. Written against @ocs/sdk only; the tests
 * run it against @ocs/mock.
 */
import { createLead, getCampaign, OcsApiError, type OcsClient } from '@ocs/sdk';
import { createDeduplicator, type ProspectResponseEvent, verifyAndParse } from '@ocs/sdk/webhooks';

export interface Signup {
  email: string;
  firstName: string;
  company: string;
}

export interface EnrolReport {
  enrolled: number;
  alreadyKnown: number;
  /** Signups the service refused, with its error code. */
  refused: Array<{ email: string; code: string }>;
}

/** Enrols every signup in the campaign; refuses to start when the campaign is paused. */
export async function enrolSignups(client: OcsClient, campaignId: string, signups: Signup[]): Promise<EnrolReport> {
  const { campaign } = await getCampaign(client, { campaign_id: campaignId });
  if (!campaign.is_active) throw new Error(`Campaign "${campaign.name}" is paused: not enrolling anyone.`);
  const report: EnrolReport = { enrolled: 0, alreadyKnown: 0, refused: [] };
  for (const signup of signups) {
    try {
      const answer = await createLead(client, {
        email: signup.email,
        first_name: signup.firstName,
        company: signup.company,
        campaign_id: campaignId,
      });
      if (answer.created) report.enrolled += 1;
      else report.alreadyKnown += 1;
    } catch (error) {
      // A bad address is the signup's problem, not the batch's; anything else stops the batch.
      if (error instanceof OcsApiError && error.status === 400)
        report.refused.push({ email: signup.email, code: error.code });
      else throw error;
    }
  }
  return report;
}

export interface Reply {
  email: string | null;
  sentiment: string | null;
  message: string | null;
}

/** The webhook endpoint: verifies the signature, handles each event once. */
export function replyWebhook(secret: string, onReply: (reply: Reply) => void) {
  const dedupe = createDeduplicator();
  return async (request: Request): Promise<Response> => {
    let event: ProspectResponseEvent;
    try {
      event = await verifyAndParse(request, { secret });
    } catch {
      return new Response('invalid signature', { status: 401 });
    }
    await dedupe.once(event, async () =>
      onReply({
        email: event.lead.email ?? null,
        sentiment: event.ai_response.sentiment ?? null,
        message: event.prospect_message ?? null,
      }),
    );
    return new Response(null, { status: 204 });
  };
}
