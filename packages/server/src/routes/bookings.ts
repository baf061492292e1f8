/** Tag Analytics: `GET /campaigns/{id}/bookings`, the meetings booked from a campaign. */
import { parseTimestamp } from '../domain/date-filter.ts';
import { validationError } from '../http/api-error.ts';
import { bookingView } from '../views/booking.ts';
import { findCampaign } from '../lookups/campaign.ts';
import type { PartialHandlers } from './registry.ts';

/** "Up to 500 bookings of each kind" (section 8). */
export const maxBookingsPerKind = 500;

export const bookingHandlers: PartialHandlers = {
  async listBookings({ path, query, auth }, { store }) {
    const since = query.since === undefined || query.since === null ? undefined : parseSince(query.since);
    const campaign = await findCampaign(store, auth.organization.id, path.campaign_id);
    const bookings = await store.bookings.listForCampaign(campaign.id, {
      since,
      limitPerKind: maxBookingsPerKind,
    });
    // Deleted leads are not returned by getMany: their bookings show `lead: null`.
    const leads = await store.leads.getMany(auth.organization.id, [...new Set(bookings.map((b) => b.lead_id))]);
    const byId = new Map(leads.map((lead) => [lead.id, lead]));
    return {
      status: 200,
      body: {
        success: true,
        campaign_id: campaign.id,
        count: bookings.length,
        bookings: bookings.map((booking) => bookingView(booking, byId.get(booking.lead_id) ?? null)),
      },
    };
  },
};

function parseSince(value: string): string {
  const instant = parseTimestamp(value);
  if (instant !== null) return instant;
  throw validationError([
    {
      field: 'query.since',
      message: 'must be an ISO 8601 date-time with an offset or Z, or a date',
      type: 'format',
    },
  ]);
}
