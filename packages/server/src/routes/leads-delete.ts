/**
 * Tag Leads: `DELETE /leads/{lead_id}`. With `campaign_id`, ends the lead's enrolment in that
 * campaign; without, deletes the lead itself by erasing it in place.
 */
import { eraseLeadEverywhere } from '../domain/erasure.ts';
import { ApiError } from '../http/api-error.ts';
import { findLead, leadNotFound } from '../lookups/lead.ts';
import type { PartialHandlers } from './registry.ts';

export const leadDeleteHandlers: PartialHandlers = {
  async deleteLead({ path, query, auth, now }, { store, logger }) {
    const organizationId = auth.organization.id;
    const at = now.toISOString();
    const campaignId = query.campaign_id ?? null;

    if (campaignId !== null) {
      await store.transaction(async (tx) => {
        const lead = await findLead(tx, organizationId, path.lead_id);
        const enrolment = await tx.enrolments.find(campaignId, lead.id);
        // A campaign of another organization cannot hold this lead: the same answer as not enrolled.
        if (!enrolment || enrolment.organization_id !== organizationId) {
          throw new ApiError(
            404,
            'LEAD_NOT_IN_CAMPAIGN',
            `Lead ${lead.id} is not enrolled in campaign ${campaignId}. Its enrolments are listed by GET /v1/leads/${lead.id}.`,
          );
        }
        // The row stays (removed_at set) as the record of what was sent before.
        await tx.enrolments.update(enrolment.id, { removed_at: at });
      });
      return {
        status: 200,
        body: { success: true, message: 'Lead removed from campaign', lead_id: path.lead_id, campaign_id: campaignId },
      };
    }

    // Erasure: personal and company fields are overwritten in the row itself and the row is
    // marked deleted, so every read leaves it out while its enrolments and the activity
    // recorded against its ID stay countable. Every other copy of its data (reply texts,
    // recorded messages, booking invitees, the delivery outbox, deal summaries, stored
    // replays) is erased in the same transaction, from one place (domain/erasure.ts), and
    // every delivery not yet made is cancelled: all or nothing.
    await store.transaction(async (tx) => {
      if (!(await eraseLeadEverywhere(tx, organizationId, path.lead_id, at))) throw leadNotFound(path.lead_id);
    });
    // The replaced row versions still hold the values until vacuumed (autovacuum may be off):
    // removed now, or once transactions older than the erasure have ended. The erasure has
    // committed either way; a failure here is only logged.
    await store
      .reclaimErased((entry) => logger.log(entry))
      .catch((error: unknown) =>
        logger.log({ level: 'error', message: 'vacuum after erasure failed', error: String(error) }),
      );
    return {
      status: 200,
      body: { success: true, message: 'Lead deleted', lead_id: path.lead_id, campaign_id: null },
    };
  },
};
