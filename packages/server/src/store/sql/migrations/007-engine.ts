/**
 * The campaign engine (issue 5): a step runs once per sequence lead whatever number of
 * engines share the database, and the sandbox channel's record of what it "sent".
 */
export const migration007 = {
  version: 7,
  name: 'engine',
  sql: /* sql */ `
-- The engine inserts a step's event before it counts the step as run: a second engine
-- racing for the same step fails here and sends nothing.
create unique index activity_events_step_run on activity_events (enrolment_id, step_id) where step_id is not null;

create table sandbox_messages (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  enrolment_id uuid not null references enrolments (id),
  lead_id uuid not null references leads (id),
  step_id integer not null,
  step_type text not null,
  channel text not null check (channel in ('email', 'linkedin')),
  variation text check (variation in ('a', 'b')),
  -- No foreign key: the record stays what the account sent.
  account_id text,
  subject text,
  body text not null,
  sent_at timestamptz not null
);
create index sandbox_messages_campaign on sandbox_messages (campaign_id, sent_at, id);
create index sandbox_messages_lead on sandbox_messages (lead_id);
`,
};
