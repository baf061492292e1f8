/**
 * The erasure's reads of a lead's deals and deliveries (decision 0003): `where organization_id
 * = $1 and lead_id = $2 ... for update`. Neither table had an index whose first column is
 * `lead_id` (deals are listed by organization, deliveries by due time and campaign), so every
 * erasure read every deal and every delivery of the organization: its cost grew with what all
 * the other leads had, and it locked nothing less for it. The other tables an erasure writes
 * have theirs (`activity_events_lead`, `bookings_lead`, `sandbox_messages_lead`).
 */
export const migration015 = {
  version: 15,
  name: 'lead-copies-by-lead',
  sql: /* sql */ `
create index deals_lead on deals (lead_id) where lead_id is not null;
create index deliveries_lead on deliveries (lead_id);
`,
};
