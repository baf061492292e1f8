/** Tag Analytics: `GET /campaigns/{id}/queue`, what the campaign sends next. */
import { type QueueItem, queueItem } from '../domain/campaign-queue.ts';
import { parseTimestamp } from '../domain/date-filter.ts';
import { validationError } from '../http/api-error.ts';
import { findCampaign } from '../lookups/campaign.ts';
import { readPendingSteps } from './queue-read.ts';
import type { PartialHandlers } from './registry.ts';

export const queueHandlers: PartialHandlers = {
  async getCampaignQueue({ path, query, auth }, { store, clock }) {
    const before = query.before === undefined ? undefined : parseBefore(query.before);
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const answer = (queue: QueueItem[]) => ({
      status: 200 as const,
      body: { success: true, campaign_id: campaign.id, count: queue.length, queue },
    });
    // A draft or deactivated campaign sends nothing: no need to read its leads.
    if (!campaign.is_active) return answer([]);
    const accounts = await store.accounts.getMany(auth.organization.id, campaign.enabled_accounts);
    // Its pages as of one moment (queue-read.ts says why).
    const pending = await store.transaction(
      (snapshot) =>
        readPendingSteps(snapshot, {
          campaign,
          accounts,
          now: () => clock.now().toISOString(),
          before,
          limit: query.limit ?? 100,
        }),
      { snapshot: true },
    );
    return answer(pending.map(queueItem));
  },
};

/** The schema checked the date-time form; this refuses what names no real moment (`23:59:60`). */
function parseBefore(value: string): string {
  const instant = parseTimestamp(value);
  if (instant !== null && !/^\d{4}-\d\d-\d\d$/.test(value)) return instant;
  throw validationError([
    { field: 'query.before', message: 'must be an ISO 8601 date-time with an offset', type: 'format' },
  ]);
}
