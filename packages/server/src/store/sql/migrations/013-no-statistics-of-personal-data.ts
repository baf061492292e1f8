/**
 * No planner statistics of personal data (decision 0003, "Planner statistics"). `ANALYZE`
 * copies sampled values of each column into `pg_statistic` (most common values, histogram
 * bounds): a lead's email, names or custom fields would survive its erasure there, since an
 * erasure rewrites rows and statistics are only replaced by the next `ANALYZE`. The server
 * now runs `ANALYZE` itself (decision 0006), so every column an erasure writes, and the
 * expression index over `lower(email)`, gets a statistics target of 0: `ANALYZE` (the
 * server's or autovacuum's) samples none of their values. The planner then uses default
 * estimates for them, which no statement of the store relies on (an email is found through
 * the unique index `leads_email`).
 *
 * Statistics gathered before this migration are deleted where the role may (a superuser, as
 * PGlite's is); elsewhere they stay until the operator deletes them (the decision says how).
 */
// Written out, not read from `leadDataFields` (domain/lead-rules.ts): a migration is a snapshot
// that never changes once released. A test checks that every lead data field is covered.
const personalColumns: Record<string, string[]> = {
  leads: [
    'email',
    'first_name',
    'last_name',
    'company',
    'title',
    'industry',
    'website',
    'linkedin_profile',
    'annual_revenue',
    'employee_count',
    'custom_fields',
  ],
  activity_events: ['data'],
  bookings: ['invitee_name', 'invitee_email'],
  deals: ['name', 'notes', 'custom_fields', 'metadata'],
  deliveries: ['body'],
  idempotency_keys: ['response_body'],
  sandbox_messages: ['subject', 'body'],
};

const alterTables = Object.entries(personalColumns)
  .map(
    ([table, columns]) =>
      `alter table ${table} ${columns.map((column) => `alter column ${column} set statistics 0`).join(', ')};`,
  )
  .join('\n');

export const migration013 = {
  version: 13,
  name: 'no-statistics-of-personal-data',
  sql: /* sql */ `
${alterTables}
-- leads_email is (organization_id, lower(email)): its second column is the email.
alter index leads_email alter column 2 set statistics 0;
do $$
begin
  if exists (select 1 from pg_roles where rolname = current_user and rolsuper) then
    delete from pg_statistic s
     using pg_attribute a
     where a.attrelid = s.starelid and a.attnum = s.staattnum and a.attstattarget = 0
       and s.starelid in (${[...Object.keys(personalColumns), 'leads_email'].map((name) => `'${name}'::regclass`).join(', ')});
  end if;
end
$$;
`,
};
