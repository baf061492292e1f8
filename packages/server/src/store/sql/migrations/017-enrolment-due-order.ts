/**
 * The queue (`GET /campaigns/{id}/queue`) reads a campaign's enrolments in the order of their
 * bounds (decision 0002, "The queue reads by bound"), a page at a time from where the last
 * one ended: `(due_at, id) > (last due_at, last id)`. Leads enrolled in one batch share a due
 * time, so without `id` in the index each page would read and sort every lead of the tie. The
 * engine's reads (`due_at <= now`, the earliest bound after now) use the same index.
 */
export const migration017 = {
  version: 17,
  name: 'enrolment-due-order',
  sql: /* sql */ `
drop index enrolments_due;
create index enrolments_due on enrolments (campaign_id, due_at, id) where due_at is not null;
`,
};
