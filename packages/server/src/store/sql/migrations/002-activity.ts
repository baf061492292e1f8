/**
 * The activity model (issue 5's engine writes it, the analytics operations read it): one row
 * per event that happened to a sequence lead, and the bookings made from a campaign.
 */
export const migration002 = {
  version: 2,
  name: 'activity',
  sql: /* sql */ `
create table activity_events (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  enrolment_id uuid not null references enrolments (id),
  lead_id uuid not null references leads (id),
  variation text check (variation in ('a', 'b')),
  step_id integer,
  -- No foreign key: an event stays the record of what an account did.
  account_id text,
  channel text check (channel in ('email', 'linkedin')),
  kind text not null check (kind in ('email_sent', 'email_opened', 'profile_viewed', 'connection_requested',
    'already_connected', 'connection_accepted', 'linkedin_message_sent', 'reply_received')),
  occurred_at timestamptz not null,
  data jsonb not null default '{}'
);
-- Analytics read a campaign's events over a window; the engine reads one lead's events.
create index activity_events_campaign on activity_events (campaign_id, occurred_at, id);
create index activity_events_enrolment on activity_events (enrolment_id, kind, occurred_at);
create index activity_events_lead on activity_events (lead_id);

create table bookings (
  id uuid primary key,
  organization_id uuid not null references organizations (id),
  campaign_id uuid not null references campaigns (id),
  enrolment_id uuid not null references enrolments (id),
  lead_id uuid not null references leads (id),
  kind text not null check (kind in ('meeting', 'confirmation')),
  booked_at timestamptz not null,
  start_time timestamptz,
  status text,
  invitee_name text,
  invitee_email text,
  canceled_at timestamptz,
  rescheduled boolean,
  confirmed_by text check (confirmed_by in ('agent', 'person'))
);
create index bookings_campaign on bookings (campaign_id, kind, booked_at desc, id desc);
create index bookings_lead on bookings (lead_id);

-- Analytics list every enrolment of a campaign, removed ones included.
create index enrolments_campaign on enrolments (campaign_id, enrolled_at, id);
`,
};
